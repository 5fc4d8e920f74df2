import { compareBytes, prefixEnd } from "../core/bytes.js";
import { err, ok, type Result } from "../core/errors.js";

/**
 * `query.CollectionFilteredPaginate` (reference types/query/collections_pagination.go, v0.50 with the reverse-key fix
 * of cosmos-sdk#20939) over a collection given as its entries in ascending key order. Keys are the collection keys
 * without the collection prefix, encoded as the reference's key codec encodes them (`next_key` is such a key).
 *
 * - No request, or `limit` 0: limit 100 (`DefaultLimit`) and `count_total` forced on.
 * - `offset` and `key` together: an error (the gov query server returns it as codes.Internal).
 * - With a key: iteration starts at the key (forward: keys ≥ key; reverse: keys < PrefixEnd(key), so the key itself
 *   and the keys it prefixes are included); `count_total` is ignored and `total` is 0.
 * - Without a key: `offset` entries are skipped (before the predicate); the first `limit` matching entries are
 *   returned. Without `count_total`, `next_key` is the key of the entry after the limit-th match, whether or not it
 *   matches. With it, every later entry is visited and `next_key` is rewritten while the count stays at the limit:
 *   the key of the first match after the page, or of the last entry when none matches (the reference's odd corner);
 *   `total` is the matches after the offset plus the offset. An offset past the end gives an empty page
 *   with next_key empty and total 0 (ErrInvalidIterator turned into an empty PageResponse).
 */
export interface PageRequest {
  readonly key: Uint8Array;
  readonly offset: bigint;
  readonly limit: bigint;
  readonly countTotal: boolean;
  readonly reverse: boolean;
}

export interface PageResponse {
  readonly nextKey: Uint8Array;
  readonly total: bigint;
}

export interface CollectionEntry<V> {
  readonly key: Uint8Array;
  readonly value: V;
}

export interface Page<V> {
  readonly results: V[];
  readonly page: PageResponse;
}

/** `query.DefaultLimit`. */
export const DEFAULT_PAGE_LIMIT = 100n;

const EMPTY: Uint8Array = new Uint8Array();

export function collectionPaginate<V>(
  ascending: readonly CollectionEntry<V>[],
  request: PageRequest | undefined,
  include: (v: V) => boolean = () => true,
): Result<Page<V>, string> {
  const key = request?.key ?? EMPTY;
  const offset = request?.offset ?? 0n;
  const reverse = request?.reverse ?? false;
  let limit = request?.limit ?? 0n;
  let countTotal = request?.countTotal ?? false;
  if (limit === 0n) {
    limit = DEFAULT_PAGE_LIMIT;
    countTotal = true;
  }
  if (offset > 0n && key.length > 0) return err("invalid request, either offset or key is expected, got both");

  const ordered = reverse ? [...ascending].reverse() : ascending;
  if (key.length > 0) {
    const end = prefixEnd(key);
    const inRange = reverse
      ? (k: Uint8Array) => end === undefined || compareBytes(k, end) < 0
      : (k: Uint8Array) => compareBytes(k, key) >= 0;
    const results: V[] = [];
    for (const e of ordered) {
      if (!inRange(e.key) || !include(e.value)) continue;
      if (BigInt(results.length) === limit) return ok({ results, page: { nextKey: e.key, total: 0n } });
      results.push(e.value);
    }
    return ok({ results, page: { nextKey: EMPTY, total: 0n } });
  }

  if (offset > BigInt(ordered.length)) return ok({ results: [], page: { nextKey: EMPTY, total: 0n } });
  const results: V[] = [];
  let count = 0n;
  let nextKey: Uint8Array = EMPTY;
  for (const e of ordered.slice(Number(offset))) {
    if (count < limit) {
      if (include(e.value)) {
        results.push(e.value);
        count++;
      }
      continue;
    }
    if (count === limit) {
      nextKey = e.key;
      if (!countTotal) return ok({ results, page: { nextKey, total: 0n } });
    }
    if (include(e.value)) count++;
  }
  return ok({ results, page: { nextKey, total: countTotal ? count + offset : 0n } });
}
