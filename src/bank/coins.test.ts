import { describe, expect, it } from "vitest";
import { addCoins, formatCoins, isAllGTE, normalizeCoins, parseCoins, subCoins, validateCoins } from "./coins.js";

const c = (s: string) => {
  const r = parseCoins(s);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe("coin strings", () => {
  it("parses single and multiple coins, sorted by denom, zeros dropped", () => {
    expect(c("10000000stake")).toEqual([{ denom: "stake", amount: 10_000_000n }]);
    expect(c("1stake,2atom")).toEqual([
      { denom: "atom", amount: 2n },
      { denom: "stake", amount: 1n },
    ]);
    expect(c(" 5 stake , 0atom ")).toEqual([{ denom: "stake", amount: 5n }]);
    expect(c("")).toEqual([]);
  });

  it("rejects malformed input with a clear error", () => {
    const e = (s: string) => {
      const r = parseCoins(s);
      return r.ok ? "ok" : r.error.message;
    };
    expect(e("1.5stake")).toBe('invalid coin expression: "1.5stake" (expected <integer amount><denom>)');
    expect(e("stake")).toContain("invalid coin expression");
    expect(e("10st")).toContain("invalid coin expression"); // denoms have at least 3 characters
    expect(e("1stake,2stake")).toBe("duplicate denomination stake");
  });

  it("formats like Go Coins.String()", () => {
    expect(formatCoins(c("1stake,2atom"))).toBe("2atom,1stake");
    expect(formatCoins([])).toBe("");
  });
});

describe("coin validation and arithmetic", () => {
  it("validates like Coins.Validate", () => {
    expect(validateCoins([]).ok).toBe(true);
    expect(validateCoins([{ denom: "stake", amount: 0n }])).toEqual({
      ok: false,
      error: "coin 0stake amount is not positive",
    });
    expect(
      validateCoins([
        { denom: "stake", amount: 1n },
        { denom: "atom", amount: 1n },
      ]),
    ).toEqual({ ok: false, error: "denomination atom is not sorted" });
    expect(
      validateCoins([
        { denom: "atom", amount: 1n },
        { denom: "atom", amount: 1n },
      ]),
    ).toEqual({ ok: false, error: "duplicate denomination atom" });
    expect(validateCoins([{ denom: "1x", amount: 1n }])).toEqual({ ok: false, error: "invalid denom: 1x" });
  });

  it("adds and subtracts into normalized lists", () => {
    expect(addCoins(c("1stake"), c("2atom,3stake"))).toEqual(c("2atom,4stake"));
    expect(subCoins(c("2atom,4stake"), c("4stake"))).toEqual(c("2atom"));
    expect(subCoins(c("2atom"), c("3atom"))).toBeUndefined();
    expect(
      normalizeCoins([
        { denom: "b-x", amount: 1n },
        { denom: "a-x", amount: 0n },
      ]),
    ).toEqual([{ denom: "b-x", amount: 1n }]);
  });

  it("isAllGTE follows the reference's empty-list rules", () => {
    expect(isAllGTE([], [])).toBe(true);
    expect(isAllGTE(c("1stake"), [])).toBe(true);
    expect(isAllGTE([], c("1stake"))).toBe(false);
    expect(isAllGTE(c("5stake,1atom"), c("5stake"))).toBe(true);
    expect(isAllGTE(c("5stake"), c("5stake,1atom"))).toBe(false);
    expect(isAllGTE(c("4stake"), c("5stake"))).toBe(false);
  });
});
