import { describe, expect, it } from "vitest";
import { Dec, dec } from "./dec.js";

describe("LegacyDec parsing and printing", () => {
  it("prints 18 decimals like Go's LegacyDec.String()", () => {
    expect(dec("0.334").toString()).toBe("0.334000000000000000");
    expect(dec("1").toString()).toBe("1.000000000000000000");
    expect(dec("-1.5").toString()).toBe("-1.500000000000000000");
    expect(dec("123456789.000000000000000001").toString()).toBe("123456789.000000000000000001");
    expect(Dec.ZERO.toString()).toBe("0.000000000000000000");
  });

  it("rejects malformed strings with the reference texts", () => {
    const e = (s: string) => {
      const r = Dec.parse(s);
      return r.ok ? "ok" : r.error;
    };
    expect(e("")).toBe("decimal string cannot be empty");
    expect(e("-")).toBe("decimal string cannot be empty");
    expect(e(".5")).toBe("invalid decimal length");
    expect(e("5.")).toBe("invalid decimal length");
    expect(e("1.2.3")).toBe("invalid decimal string");
    expect(e("0.1234567890123456789")).toBe(
      "value '0.1234567890123456789' exceeds max precision by -1 decimal places: max precision 18",
    );
    expect(e("abc")).toBe("failed to set decimal string with base 10: abc000000000000000000");
    expect(e("0.5")).toBe("ok");
  });
});

describe("LegacyDec arithmetic", () => {
  const raw = (n: bigint) => Dec.fromRaw(n);

  it("rounds products half to even at 18 decimals", () => {
    expect(raw(5n).mul(dec("0.1")).raw).toBe(0n); // 0.5e-18 → 0 (even)
    expect(raw(15n).mul(dec("0.1")).raw).toBe(2n); // 1.5e-18 → 2
    expect(raw(25n).mul(dec("0.1")).raw).toBe(2n); // 2.5e-18 → 2
    expect(raw(26n).mul(dec("0.1")).raw).toBe(3n); // 2.6e-18 → 3
    expect(raw(-15n).mul(dec("0.1")).raw).toBe(-2n); // symmetric around zero
  });

  it("rounds quotients half to even after truncating a·10^36/b", () => {
    expect(dec("1").quo(dec("3")).toString()).toBe("0.333333333333333333");
    expect(dec("2").quo(dec("3")).toString()).toBe("0.666666666666666667");
    expect(dec("334").quo(dec("1000")).toString()).toBe("0.334000000000000000");
    // Exactly 0.5000000000000000005000…: exact rounding gives …001, the reference's truncate-then-round gives …000.
    expect(dec("0.5").quo(dec("0.999999999999999999")).toString()).toBe("0.500000000000000000");
    expect(() => dec("1").quo(Dec.ZERO)).toThrow(RangeError);
  });

  it("truncates and rounds to integers as the reference", () => {
    expect(dec("2.5").roundInt()).toBe(2n);
    expect(dec("3.5").roundInt()).toBe(4n);
    expect(dec("-2.5").roundInt()).toBe(-2n);
    expect(dec("2.500000000000000001").roundInt()).toBe(3n);
    expect(dec("1.7").truncateInt()).toBe(1n);
    expect(dec("-1.7").truncateInt()).toBe(-1n);
    expect(Dec.fromInt(7n).mulInt(3n).toString()).toBe("21.000000000000000000");
    expect(dec("7").quoInt(2n).toString()).toBe("3.500000000000000000");
  });

  it("compares", () => {
    expect(dec("0.334").eq(dec("0.3340"))).toBe(true);
    expect(dec("0.5").gt(dec("0.499999999999999999"))).toBe(true);
    expect(dec("0.5").lt(dec("0.5"))).toBe(false);
    expect(dec("-0.1").isNegative()).toBe(true);
    expect(Dec.ZERO.isPositive()).toBe(false);
  });
});
