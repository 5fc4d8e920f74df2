import type { GatewayResponse } from "./response.js";

/**
 * The gateway's response cache: answers to body-less GET requests, keyed by what the answer depends on (the
 * gateway builds the key: the backend's retained window, the target and the headers that matter). Bounded in
 * entries (RESPONSE_CACHE_MAX) and in bytes (RESPONSE_CACHE_BYTES_MAX), evicted oldest first; an entry larger than
 * RESPONSE_CACHE_ENTRY_BYTES_MAX is never stored, and neither is a 500 (a failure may not recur).
 *
 * It is not `BoundedCache` (src/core/bounded-cache.ts) because it bounds bytes as well as entries.
 */
const RESPONSE_CACHE_MAX = 1024;
/** Bytes (UTF-16 code units of keys and bodies, headers included) the response cache may hold. */
export const RESPONSE_CACHE_BYTES_MAX = 16 << 20;
/** A response whose key and body are larger than this is computed each time, never cached. */
const RESPONSE_CACHE_ENTRY_BYTES_MAX = 256 << 10;

/** What a cached entry costs: its key, its body and its header text. */
const entryBytes = (key: string, r: GatewayResponse): number => {
  let n = key.length + r.body.length + 64;
  for (const [k, v] of r.headers) n += k.length + v.length;
  return n;
};

export class ResponseCache {
  readonly #entries = new Map<string, { readonly r: GatewayResponse; readonly bytes: number }>();
  #bytes = 0;

  /** Bytes held (see RESPONSE_CACHE_BYTES_MAX). */
  get bytes(): number {
    return this.#bytes;
  }

  get(key: string): GatewayResponse | undefined {
    return this.#entries.get(key)?.r;
  }

  /** Stores `r` under `key` unless it is a 500 or too large, evicting the oldest entries to make room. */
  offer(key: string, r: GatewayResponse): void {
    if (r.status === 500) return;
    const bytes = entryBytes(key, r);
    if (bytes > RESPONSE_CACHE_ENTRY_BYTES_MAX) return;
    while (
      this.#entries.size > 0 &&
      (this.#entries.size >= RESPONSE_CACHE_MAX || this.#bytes + bytes > RESPONSE_CACHE_BYTES_MAX)
    ) {
      const [oldest, entry] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      this.#bytes -= entry.bytes;
    }
    this.#entries.set(key, { r, bytes });
    this.#bytes += bytes;
  }
}
