import { compareBytes, prefixEnd } from "../core/bytes.js";
import { err, ok, type Result } from "../core/errors.js";

/**
 * `query.CollectionFilteredPaginate` (reference types/query/collections_pagination.go, v0.50 with the reverse-key fix
 * of cosmos-sdk#20939) over a collection given as its values in ascending key order and `keyOf`, a value's key: the
 * collection key without the collection prefix, encoded as the reference's key codec encodes it (`next_key` is such
 * a key). Keys are taken only where they are read: every value's with a request key (the range bound), and the one
 * `next_key` names; a page without a key reads at most one.
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

export interface Page<V> {
  readonly results: V[];
  readonly page: PageResponse;
}

/** `query.DefaultLimit`. */
export const DEFAULT_PAGE_LIMIT = 100n;

const EMPTY: Uint8Array = new Uint8Array();

export function collectionPaginate<V>(
  ascending: readonly V[],
  keyOf: (v: V) => Uint8Array,
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
  return key.length > 0
    ? ok(fromKey(ordered, keyOf, key, reverse, limit, include))
    : ok(fromOffset(ordered, keyOf, offset, limit, countTotal, include));
}

/** With a key: the first `limit` matches in range; `next_key` the next match's key; no total. */
function fromKey<V>(
  ordered: readonly V[],
  keyOf: (v: V) => Uint8Array,
  key: Uint8Array,
  reverse: boolean,
  limit: bigint,
  include: (v: V) => boolean,
): Page<V> {
  const end = prefixEnd(key);
  const inRange = reverse
    ? (k: Uint8Array) => end === undefined || compareBytes(k, end) < 0
    : (k: Uint8Array) => compareBytes(k, key) >= 0;
  const results: V[] = [];
  for (const v of ordered) {
    const k = keyOf(v);
    if (!inRange(k) || !include(v)) continue;
    if (BigInt(results.length) === limit) return { results, page: { nextKey: k, total: 0n } };
    results.push(v);
  }
  return { results, page: { nextKey: EMPTY, total: 0n } };
}

/** Without a key: `offset` skipped, the first `limit` matches, then `next_key` and the count as described above. */
function fromOffset<V>(
  ordered: readonly V[],
  keyOf: (v: V) => Uint8Array,
  offset: bigint,
  limit: bigint,
  countTotal: boolean,
  include: (v: V) => boolean,
): Page<V> {
  if (offset > BigInt(ordered.length)) return { results: [], page: { nextKey: EMPTY, total: 0n } };
  const results: V[] = [];
  let count = 0n;
  let next: V | undefined;
  let hasNext = false;
  for (let i = Number(offset); i < ordered.length; i++) {
    const v = ordered[i]!;
    if (count < limit) {
      if (include(v)) {
        results.push(v);
        count++;
      }
      continue;
    }
    if (count === limit) {
      next = v;
      hasNext = true;
      if (!countTotal) return { results, page: { nextKey: keyOf(v), total: 0n } };
    }
    if (include(v)) count++;
  }
  const nextKey = hasNext ? keyOf(next as V) : EMPTY;
  return { results, page: { nextKey, total: countTotal ? count + offset : 0n } };
}
