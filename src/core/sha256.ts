import { createHash, hash } from "node:crypto";
import { _SHA256 } from "@noble/hashes/sha2.js";

/**
 * SHA-256 for the hot paths (app hashes, the trace): Node's native implementation, 4-8x faster than the pure-JS one
 * on the 0.1-4 KiB inputs these paths hash. A pure function, so the deterministic core may use it.
 */
export interface Sha256 {
  update(bytes: Uint8Array | string): Sha256;
  digest(): Uint8Array;
  /** An independent copy of the state so far. */
  copy(): Sha256;
}

class NodeSha256 implements Sha256 {
  readonly #h: ReturnType<typeof createHash>;
  constructor(h = createHash("sha256")) {
    this.#h = h;
  }
  update(bytes: Uint8Array | string): Sha256 {
    this.#h.update(bytes);
    return this;
  }
  digest(): Uint8Array {
    return new Uint8Array(this.#h.digest());
  }
  copy(): Sha256 {
    return new NodeSha256(this.#h.copy());
  }
}

export const sha256Hasher = (): Sha256 => new NodeSha256();

/** SHA-256 of one input: Node's one-shot hash (no hasher object; about twice as fast on the small inputs here). */
export const sha256Of = (bytes: Uint8Array | string): Uint8Array => new Uint8Array(hash("sha256", bytes, "buffer"));

/** A SHA-256 midstate as plain data: the eight state words, the unprocessed tail of the input, the length so far. */
export interface Sha256State {
  readonly words: readonly number[];
  readonly tail: Uint8Array;
  readonly length: number;
}

/**
 * SHA-256 whose midstate can be taken out as plain data and resumed from it (`state`, `resumeSha256`): noble's
 * implementation, which keeps that state in fields. Several times slower than the native hasher, so used only where a
 * hash must survive a plain-data snapshot (the trace of a long run).
 */
export class PlainSha256 extends _SHA256 {
  state(): Sha256State {
    return { words: [...this.get()], tail: this.buffer.slice(0, this.pos), length: this.length };
  }
  static resume(st: Sha256State): PlainSha256 {
    const h = new PlainSha256();
    const [a, b, c, d, e, f, g, hh] = st.words;
    h.set(a ?? 0, b ?? 0, c ?? 0, d ?? 0, e ?? 0, f ?? 0, g ?? 0, hh ?? 0);
    h.buffer.set(st.tail);
    h.pos = st.tail.length;
    h.length = st.length;
    return h;
  }
}
