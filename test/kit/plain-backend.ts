import type { BackendWrite, StoreBackend } from "../../src/store/backend.js";
import { MemBackend } from "../../src/store/mem-backend.js";

/**
 * The in-memory backend behind the bare StoreBackend interface only: the multistore takes its byte-array paths, the
 * reference its latin1 fast path (src/store/historical-mem-kv.ts) must equal.
 */
export class PlainBackend implements StoreBackend {
  constructor(readonly inner = new MemBackend()) {}
  get(key: Uint8Array) {
    return this.inner.get(key);
  }
  iterator(start: Uint8Array | undefined, end: Uint8Array | undefined) {
    return this.inner.iterator(start, end);
  }
  reverseIterator(start: Uint8Array | undefined, end: Uint8Array | undefined) {
    return this.inner.reverseIterator(start, end);
  }
  write(batch: readonly BackendWrite[]) {
    this.inner.write(batch);
  }
  fork() {
    return new PlainBackend(this.inner.fork());
  }
}
