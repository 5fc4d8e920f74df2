import { present } from "../core/assert.js";
import { toHex } from "../core/bytes.js";
import { PlainSha256, type Sha256, type Sha256State, sha256Hasher } from "../core/sha256.js";
import { renderTraceEvent, type TraceEvent, type TraceEventOf } from "./trace-events.js";

export type { TraceEvent };

/** Events the writer holds unhashed, at most, when it does not keep them: past this it hashes them. */
const UNHASHED_MAX = 256;

type Range = { from: number; to: number; timeFromMs: number; timeToMs: number; appHash: string };

/**
 * Hashed text kept verbatim up to this many characters, so that a snapshot can restart the native hash from it; past
 * it, the hash goes on in a SHA-256 whose midstate is plain data (slower, and only for long traces).
 */
const HASHED_TEXT_MAX = 1 << 20;

/** How the hash so far is held: the native hasher plus the text it absorbed, or a plain-data midstate. */
type HashState =
  | { readonly kind: "text"; readonly hasher: Sha256; readonly text: string[]; chars: number }
  | { readonly kind: "midstate"; readonly hasher: PlainSha256 };

/** The writer's state as plain data: what an engine snapshot holds. */
export interface TraceSnapshot {
  readonly keep: boolean;
  readonly events: readonly TraceEvent[];
  readonly hashed: number;
  /** The hash so far: the text it absorbed, or its midstate. */
  readonly hash:
    | { readonly kind: "text"; readonly text: string }
    | { readonly kind: "midstate"; readonly state: Sha256State };
  readonly pending: Readonly<Range> | undefined;
  readonly count: number;
}

function resumeHash(from: TraceSnapshot["hash"] | undefined): HashState {
  if (from?.kind === "midstate") return { kind: "midstate", hasher: PlainSha256.resume(from.state) };
  const text = from?.text ?? "";
  return { kind: "text", hasher: sha256Hasher().update(text), text: text === "" ? [] : [text], chars: text.length };
}

const utf8 = new TextEncoder();

/**
 * The trace: typed events, rendered to canonical JSON lines only when the hash or the lines are asked for.
 * Consecutive plain blocks (no transactions, no events, no app-hash change, no halt) are merged into one `blocks`
 * range, by content alone, so the trace is the same whether the engine executed those blocks one by one or
 * fast-forwarded them. With `keep`, every event stays readable (`events()`, `lines()`); without it, events are
 * dropped once hashed, and at most `UNHASHED_MAX` wait for the hash.
 */
export class TraceWriter {
  #hash: HashState;
  readonly #keep: boolean;
  /** With `keep`: every event. Without: the events not hashed yet. */
  #events: TraceEvent[];
  /** How many of `#events` the hash has absorbed. */
  #hashed: number;
  #pending: Range | undefined;
  #count: number;

  constructor(keep: boolean, from?: TraceSnapshot) {
    this.#keep = from?.keep ?? keep;
    this.#hash = resumeHash(from?.hash);
    this.#events = from === undefined ? [] : [...from.events];
    this.#hashed = from?.hashed ?? 0;
    this.#pending = from?.pending === undefined ? undefined : { ...from.pending };
    this.#count = from?.count ?? 0;
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

  /** Records the plain blocks `from` … `to` (times `timeFromMs` … `timeToMs`): the same as one `plainBlock` each. */
  plainBlocks(from: number, to: number, timeFromMs: number, timeToMs: number, appHash: string): void {
    this.plainBlock(from, timeFromMs, appHash);
    if (to > from) {
      const p = this.#pending!;
      p.to = to;
      p.timeToMs = timeToMs;
    }
  }

  emit(event: TraceEvent): void {
    this.#flush();
    this.#push(event);
  }

  #flush(): void {
    const p = this.#pending;
    if (p === undefined) return;
    this.#pending = undefined;
    this.#push(rangeEvent(p));
  }

  #push(e: TraceEvent): void {
    this.#count++;
    this.#events.push(e);
    if (!this.#keep && this.#events.length - this.#hashed > UNHASHED_MAX) this.#absorb();
  }

  /** Hashes the events not hashed yet; without `keep`, drops them. */
  #absorb(): void {
    for (; this.#hashed < this.#events.length; this.#hashed++)
      this.#hashText(`${renderTraceEvent(present(this.#events[this.#hashed], "events up to the count are kept"))}\n`);
    if (!this.#keep) {
      this.#events = [];
      this.#hashed = 0;
    }
  }

  #hashText(line: string): void {
    const h = this.#hash;
    if (h.kind === "midstate") {
      h.hasher.update(utf8.encode(line));
      return;
    }
    h.hasher.update(line);
    h.text.push(line);
    h.chars += line.length;
    if (h.chars > HASHED_TEXT_MAX)
      this.#hash = { kind: "midstate", hasher: new PlainSha256().update(utf8.encode(h.text.join(""))) };
  }

  /**
   * SHA-256 (hex) of every line so far, each followed by "\n", the pending range included. Reading never changes
   * the trace: a pending range stays open, so observing a run mid-way does not split its ranges.
   */
  hash(): string {
    this.#absorb();
    const tail = this.#pending === undefined ? "" : `${renderTraceEvent(rangeEvent(this.#pending))}\n`;
    const h = this.#hash;
    if (h.kind === "text") return toHex(h.hasher.copy().update(tail).digest());
    return toHex(h.hasher.clone().update(utf8.encode(tail)).digest());
  }

  /** The kept events, the pending range included (empty when events are not kept). Does not change the trace. */
  events(): readonly TraceEvent[] {
    if (!this.#keep) return [];
    return this.#pending === undefined ? [...this.#events] : [...this.#events, rangeEvent(this.#pending)];
  }

  /** Kept events from index `from` on (the pending range included), for readers that follow the trace. */
  eventsFrom(from: number): readonly TraceEvent[] {
    if (!this.#keep) return [];
    const tail = this.#events.slice(from);
    if (this.#pending !== undefined && from <= this.#events.length) tail.push(rangeEvent(this.#pending));
    return tail;
  }

  /** The kept events as canonical JSON lines (empty when events are not kept). Does not change the trace. */
  lines(): readonly string[] {
    return this.events().map(renderTraceEvent);
  }

  get lineCount(): number {
    return this.#count + (this.#pending ? 1 : 0);
  }

  /** The state as plain data; a writer built from it continues exactly as this one would. */
  snapshot(): TraceSnapshot {
    return {
      keep: this.#keep,
      events: [...this.#events],
      hashed: this.#hashed,
      hash:
        this.#hash.kind === "text"
          ? { kind: "text", text: this.#hash.text.join("") }
          : { kind: "midstate", state: this.#hash.hasher.state() },
      pending: this.#pending === undefined ? undefined : { ...this.#pending },
      count: this.#count,
    };
  }
}

const rangeEvent = (p: Range): TraceEventOf<"blocks"> => ({ kind: "blocks", ...p });
