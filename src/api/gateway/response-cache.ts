import type { GatewayResponse } from "./response.js";

/**
 * The gateway's response cache: answers to body-less GET requests, keyed by what the answer depends on (the
 * gateway builds the key: the backend's retained window, the target and the headers that matter). Bounded in
 * entries (RESPONSE_CACHE_MAX) and in bytes (RESPONSE_CACHE_BYTES_MAX), evicted oldest first; an entry larger than
 * RESPONSE_CACHE_ENTRY_BYTES_MAX is never stored, and neither is a 500 (a failure may not recur).
 *
 * Admission: an answer is stored the second time its key misses within the last ADMISSION_WINDOW misses (a
 * "doorkeeper", as in TinyLFU), never the first. A FIFO of RESPONSE_CACHE_MAX entries cannot answer a key whose
 * misses are further apart than that (the entry is evicted before it is asked again), so storing it on its first
 * miss only costs the copy and the garbage collection of a retained answer, and evicts answers that are asked
 * again. A sweep over more distinct requests than the cache holds (an indexer walking heights) therefore neither
 * pays for storing nor flushes the cache; a request asked repeatedly is answered from the cache from its third
 * time on. The doorkeeper remembers 32-bit hashes of keys, not keys: a collision only admits a key early, and a hit
 * still compares the whole key.
 *
 * It is not `BoundedCache` (src/core/bounded-cache.ts) because it bounds bytes as well as entries.
 */
const RESPONSE_CACHE_MAX = 1024;
/** Bytes (UTF-16 code units of keys and bodies, headers included) the response cache may hold. */
export const RESPONSE_CACHE_BYTES_MAX = 16 << 20;
/** A response whose key and body are larger than this is computed each time, never cached. */
const RESPONSE_CACHE_ENTRY_BYTES_MAX = 256 << 10;
/** Misses the doorkeeper remembers: as many as the cache holds entries (see the module contract). */
const ADMISSION_WINDOW = RESPONSE_CACHE_MAX;

/** What a cached entry costs: its key, its body and its header text. */
const entryBytes = (key: string, r: GatewayResponse): number => {
  let n = key.length + r.body.length + 64;
  for (const [k, v] of r.headers) n += k.length + v.length;
  return n;
};

/** FNV-1a over the UTF-16 code units of `s`, as a signed 32-bit integer (a small integer to V8 more often). */
function keyHash(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** The doorkeeper: how often each key hash missed within the last ADMISSION_WINDOW misses (a ring of hashes). */
class Doorkeeper {
  readonly #ring = new Int32Array(ADMISSION_WINDOW);
  readonly #counts = new Map<number, number>();
  #next = 0;
  #filled = 0;

  /** Records a miss of `key`; true when it also missed earlier within the window. */
  missed(key: string): boolean {
    const h = keyHash(key);
    const seen = this.#counts.get(h) ?? 0;
    if (this.#filled === ADMISSION_WINDOW) {
      const old = this.#ring[this.#next]!;
      const n = this.#counts.get(old)!;
      if (n === 1) this.#counts.delete(old);
      else this.#counts.set(old, n - 1);
    } else this.#filled++;
    this.#ring[this.#next] = h;
    this.#next = (this.#next + 1) % ADMISSION_WINDOW;
    this.#counts.set(h, (this.#counts.get(h) ?? 0) + 1);
    return seen > 0;
  }
}

export class ResponseCache {
  readonly #entries = new Map<string, { readonly r: GatewayResponse; readonly bytes: number }>();
  readonly #doorkeeper = new Doorkeeper();
  #bytes = 0;

  /** Bytes held (see RESPONSE_CACHE_BYTES_MAX). */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): GatewayResponse | undefined {
    return this.#entries.get(key)?.r;
  }

  /**
   * The answer to a miss of `key`: stored when the doorkeeper saw `key` miss within its window, unless it is a 500
   * or too large, evicting the oldest entries to make room.
   */
  offer(key: string, r: GatewayResponse): void {
    if (r.status === 500 || !this.#doorkeeper.missed(key)) return;
    const bytes = entryBytes(key, r);
    if (bytes > RESPONSE_CACHE_ENTRY_BYTES_MAX) return;
    while (
      this.#entries.size > 0 &&
      (this.#entries.size >= RESPONSE_CACHE_MAX || this.#bytes + bytes > RESPONSE_CACHE_BYTES_MAX)
    ) {
      const oldest = this.#entries.keys().next().value!;
      this.#bytes -= this.#entries.get(oldest)!.bytes;
      this.#entries.delete(oldest);
    }
    this.#entries.set(key, { r, bytes });
    this.#bytes += bytes;
  }
}
