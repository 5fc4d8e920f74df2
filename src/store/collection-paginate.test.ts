import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eagerCollectionPaginate } from "../../test/kit/paginate-reference.js";
import { collectionPaginate, type PageRequest } from "./collection-paginate.js";

/** Ten values 1..10, each keyed by its number as one byte. */
const entries: number[] = Array.from({ length: 10 }, (_, i) => i + 1);
const keyOf = (v: number): Uint8Array => Uint8Array.of(v);
const req = (r: Partial<PageRequest>): PageRequest => ({
  key: new Uint8Array(),
  offset: 0n,
  limit: 0n,
  countTotal: false,
  reverse: false,
  ...r,
});
const page = (r: Partial<PageRequest> | undefined, include?: (v: number) => boolean) => {
  const p = collectionPaginate(entries, keyOf, r === undefined ? undefined : req(r), include);
  if (!p.ok) throw new Error(p.error);
  return { values: p.value.results, nextKey: [...p.value.page.nextKey], total: p.value.page.total };
};

describe("collectionPaginate: query.CollectionFilteredPaginate", () => {
  it("without a request (or limit 0) returns up to 100 entries and counts the total", () => {
    expect(page(undefined)).toEqual({ values: entries, nextKey: [], total: 10n });
    expect(page({ limit: 0n, countTotal: false }).total).toBe(10n);
  });

  it("limit gives a next_key, and the total only with count_total", () => {
    expect(page({ limit: 3n })).toEqual({ values: [1, 2, 3], nextKey: [4], total: 0n });
    expect(page({ limit: 3n, countTotal: true })).toEqual({ values: [1, 2, 3], nextKey: [4], total: 10n });
  });

  it("offset skips entries and the total includes them; an offset past the end is an empty page", () => {
    expect(page({ limit: 2n, offset: 8n, countTotal: true })).toEqual({ values: [9, 10], nextKey: [], total: 10n });
    expect(page({ offset: 10n })).toEqual({ values: [], nextKey: [], total: 10n });
    expect(page({ offset: 11n })).toEqual({ values: [], nextKey: [], total: 0n });
  });

  it("key resumes at next_key (inclusive) and ignores count_total", () => {
    expect(page({ key: Uint8Array.of(4), limit: 3n, countTotal: true })).toEqual({
      values: [4, 5, 6],
      nextKey: [7],
      total: 0n,
    });
  });

  it("reverse walks down, and a reverse key includes the key itself (cosmos-sdk#20939)", () => {
    expect(page({ reverse: true, limit: 3n })).toEqual({ values: [10, 9, 8], nextKey: [7], total: 0n });
    expect(page({ reverse: true, limit: 3n, key: Uint8Array.of(7) })).toEqual({
      values: [7, 6, 5],
      nextKey: [4],
      total: 0n,
    });
  });

  it("refuses offset and key together", () => {
    const r = collectionPaginate(entries, keyOf, req({ key: Uint8Array.of(2), offset: 1n }));
    expect(r).toEqual({ ok: false, error: "invalid request, either offset or key is expected, got both" });
  });

  it("filters with the predicate; with count_total next_key is the first match after the page, else the last entry", () => {
    const even = (v: number) => v % 2 === 0;
    expect(page({ limit: 2n }, even)).toEqual({ values: [2, 4], nextKey: [5], total: 0n });
    expect(page({ limit: 2n, countTotal: true }, even)).toEqual({ values: [2, 4], nextKey: [6], total: 5n });
    expect(page({ limit: 5n, countTotal: true }, (v) => v <= 5)).toEqual({
      values: [1, 2, 3, 4, 5],
      nextKey: [10],
      total: 5n,
    });
  });

  it("takes keys lazily: the page the eager model gives, at most one key read without a request key, none for the default page", () => {
    const keys = fc.uniqueArray(fc.uint8Array({ minLength: 0, maxLength: 3 }), {
      maxLength: 120,
      selector: (k) => k.join(","),
    });
    const request = fc.option(
      fc.record({
        key: fc.oneof(fc.constant(new Uint8Array()), fc.uint8Array({ minLength: 1, maxLength: 3 })),
        offset: fc.constantFrom(0n, 1n, 3n, 200n),
        limit: fc.constantFrom(0n, 1n, 2n, 5n, 100n),
        countTotal: fc.boolean(),
        reverse: fc.boolean(),
      }),
      { nil: undefined },
    );
    const byBytes = (a: Uint8Array, b: Uint8Array): number => {
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
      return a.length - b.length;
    };
    fc.assert(
      fc.property(keys, request, fc.nat(4), (ks, r, mod) => {
        const sorted = [...ks].sort(byBytes);
        const values = sorted.map((key, i) => ({ key, i }));
        const include = (v: { i: number }) => mod === 0 || v.i % (mod + 1) !== 0;
        let reads = 0;
        const got = collectionPaginate(
          values,
          (v) => {
            reads++;
            return v.key;
          },
          r,
          include,
        );
        const want = eagerCollectionPaginate(
          values.map((v) => ({ key: v.key, value: v })),
          r,
          include,
        );
        expect(got).toEqual(want);
        if (r === undefined || r.key.length === 0) expect(reads).toBeLessThanOrEqual(1);
        else expect(reads).toBeLessThanOrEqual(values.length);
        // The default page of at most 100 values has no next key to read.
        if (r === undefined && values.length <= 100) expect(reads).toBe(0);
      }),
      { numRuns: 400 },
    );
  });
});
