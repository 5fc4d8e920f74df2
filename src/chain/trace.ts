import { toHex } from "../core/bytes.js";
import { sha256Hasher } from "../core/sha256.js";
import { canonicalJson } from "./canonical-json.js";

/** One trace event. `t` names the kind; the rest is kind-specific and canonicalised. */
export type TraceEvent = { readonly t: string } & Readonly<Record<string, unknown>>;

/**
 * The canonical trace: JSON lines and their SHA-256. When lines are kept, hashing is deferred to `hash()` (which
 * hashes only the lines added since its last call), so runs that never ask for the hash never pay for it; otherwise
 * each line is hashed as it is written. Consecutive plain blocks (no transactions,
 * no events, no app-hash change, no halt) are merged into one `blocks` range line, by content alone, so the trace
 * is the same whether the engine executed those blocks one by one or fast-forwarded them.
 */
export class TraceWriter {
  #hash = sha256Hasher();
  readonly #lines: string[] | undefined;
  #pending: { from: number; to: number; timeFromMs: number; timeToMs: number; appHash: string } | undefined;
  #count = 0;
  /** With kept lines: how many of them `#hash` has absorbed. */
  #hashed = 0;

  constructor(keepLines: boolean) {
    this.#lines = keepLines ? [] : undefined;
  }

  /** Records a plain block; merges it into the pending range when it continues it. */
  plainBlock(height: number, timeMs: number, appHash: string): void {
    const p = this.#pending;
    if (p !== undefined && p.to + 1 === height && p.appHash === appHash) {
      p.to = height;
      p.timeToMs = timeMs;
      return;
    }
    this.#flush();
    this.#pending = { from: height, to: height, timeFromMs: timeMs, timeToMs: timeMs, appHash };
  }

  emit(event: TraceEvent): void {
    this.#flush();
    this.#write(canonicalJson(event));
  }

  #flush(): void {
    const p = this.#pending;
    if (p === undefined) return;
    this.#pending = undefined;
    this.#write(rangeLine(p));
  }

  #write(line: string): void {
    this.#count++;
    if (this.#lines === undefined) this.#hash.update(`${line}\n`);
    else this.#lines.push(line);
  }

  /**
   * SHA-256 (hex) of every line so far, each followed by "\n", the pending range included. Reading never changes
   * the trace: a pending range stays open, so observing a run mid-way does not split its ranges.
   */
  hash(): string {
    if (this.#lines !== undefined) {
      for (; this.#hashed < this.#lines.length; this.#hashed++) this.#hash.update(`${this.#lines[this.#hashed]}\n`);
    }
    const h = this.#hash.copy();
    if (this.#pending !== undefined) h.update(`${rangeLine(this.#pending)}\n`);
    return toHex(h.digest());
  }

  /** The kept lines, the pending range included (empty when lines are not kept). Does not change the trace. */
  lines(): readonly string[] {
    if (this.#lines === undefined) return [];
    return this.#pending === undefined ? [...this.#lines] : [...this.#lines, rangeLine(this.#pending)];
  }

  get lineCount(): number {
    return this.#count + (this.#pending ? 1 : 0);
  }

  clone(): TraceWriter {
    const c = new TraceWriter(this.#lines !== undefined);
    c.#hash = this.#hash.copy();
    if (this.#lines) c.#lines!.push(...this.#lines);
    c.#pending = this.#pending ? { ...this.#pending } : undefined;
    c.#count = this.#count;
    c.#hashed = this.#hashed;
    return c;
  }
}

const rangeLine = (p: { from: number; to: number; timeFromMs: number; timeToMs: number; appHash: string }): string =>
  canonicalJson({ t: "blocks", ...p });
