import { describe, expect, it } from "vitest";
import { formatCoins, parseCoin, parseCoins } from "./coins.js";

describe("parseCoin", () => {
  it("parses <integer><denom> with bigint amounts", () => {
    expect(parseCoin("10000000stake")).toEqual({ ok: true, value: { denom: "stake", amount: 10_000_000n } });
    expect(parseCoin("0stake")).toEqual({ ok: true, value: { denom: "stake", amount: 0n } });
    expect(parseCoin("123456789012345678901234567890ibc/ABC:x.y_z-1")).toEqual({
      ok: true,
      value: { denom: "ibc/ABC:x.y_z-1", amount: 123456789012345678901234567890n },
    });
  });
  it("rejects negative amounts clearly", () => {
    expect(parseCoin("-5stake")).toEqual({ ok: false, error: 'invalid coin "-5stake": amount must not be negative' });
  });
  it.each(["stake", "5", "5st", "5 stake", "1.5stake", "5_stake", `5a${"b".repeat(128)}`, "+5stake"])(
    "rejects %j",
    (text) => {
      expect(parseCoin(text)).toEqual({
        ok: false,
        error: `invalid coin ${JSON.stringify(text)}: expected <integer><denom> such as "10000000stake" (denom [a-zA-Z][a-zA-Z0-9/:._-]{2,127})`,
      });
    },
  );
  it("accepts a 128-character denom and amounts up to 256 bits", () => {
    expect(parseCoin(`5a${"b".repeat(127)}`).ok).toBe(true);
    expect(parseCoin(`${(1n << 256n) - 1n}stake`).ok).toBe(true);
    expect(parseCoin(`${1n << 256n}stake`)).toEqual({
      ok: false,
      error: `invalid coin "${1n << 256n}stake": amount exceeds 256 bits`,
    });
  });
});

describe("parseCoins", () => {
  it("parses comma lists in written order, ignoring spaces around items", () => {
    expect(parseCoins("1stake, 2atom")).toEqual({
      ok: true,
      value: [
        { denom: "stake", amount: 1n },
        { denom: "atom", amount: 2n },
      ],
    });
  });
  it("reads the empty string as no coins", () => {
    expect(parseCoins("")).toEqual({ ok: true, value: [] });
  });
  it("rejects a repeated denom and a bad item", () => {
    expect(parseCoins("1stake,2stake")).toEqual({
      ok: false,
      error: 'invalid coins "1stake,2stake": denom "stake" appears twice',
    });
    expect(parseCoins("1stake,").ok).toBe(false);
    expect(parseCoins("1stake,-2atom")).toEqual({
      ok: false,
      error: 'invalid coin "-2atom": amount must not be negative',
    });
  });
  it("formats back to the file form", () => {
    expect(
      formatCoins([
        { denom: "stake", amount: 1n },
        { denom: "atom", amount: 20n },
      ]),
    ).toBe("1stake,20atom");
    expect(formatCoins([])).toBe("");
  });
});
