import { compareBytes, prefixEnd } from "../../src/core/bytes.js";
import { err, ok, type Result } from "../../src/core/errors.js";
import { DEFAULT_PAGE_LIMIT, type Page, type PageRequest } from "../../src/store/collection-paginate.js";

/**
 * The reference model of src/store/collection-paginate.ts: `query.CollectionFilteredPaginate` as it was written before
 * it took its keys lazily (every entry given with its key up front, session 12), for the properties that hold the
 * lazy one and the pages built on it to it.
 */

export interface CollectionEntry<V> {
  readonly key: Uint8Array;
  readonly value: V;
}

const EMPTY: Uint8Array = new Uint8Array();

export function eagerCollectionPaginate<V>(
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
