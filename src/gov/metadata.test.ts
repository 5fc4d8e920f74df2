import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeProposalMetadata, decodeUncached } from "./metadata.js";

describe("decodeProposalMetadata with its memo", () => {
  // Metadata as the harness and users write it: JSON objects with the fields in any case and of any type, and
  // text that is not JSON at all; each asked for twice (the second answer comes from the memo).
  const field = fc.constantFrom("title", "Title", "summary", "SUMMARY", "details", "authors", "other");
  const value = fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null), fc.integer(), fc.array(fc.string()));
  const json = fc.dictionary(field, value).map((o) => JSON.stringify(o));
  const metadata = fc.oneof(json, fc.string(), fc.constant("null"), fc.string({ minLength: 1025, maxLength: 1100 }));

  it("answers as the uncached decoder does, every time", () => {
    fc.assert(
      fc.property(metadata, (m) => {
        for (let i = 0; i < 2; i++) expect(decodeProposalMetadata(m)).toEqual(decodeUncached(m));
      }),
      { numRuns: 2000 },
    );
  });

  it("hands out a result a caller may change without changing the next answer", () => {
    const m = JSON.stringify({ title: "t", summary: "s" });
    const first = decodeProposalMetadata(m)!;
    first.title = "changed";
    expect(decodeProposalMetadata(m)).toEqual({ title: "t", summary: "s" });
  });
});
