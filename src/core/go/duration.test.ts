import { describe, expect, it } from "vitest";
import { formatDuration, formatDurationNs, parseDuration, parseDurationNs } from "./duration.js";

const S = 1_000_000_000n;
const MS = 1_000_000n;
const MIN = 60n * S;
const H = 60n * MIN;

describe("parseDurationNs (Go time.ParseDuration)", () => {
  // Cases from Go's own parseDurationTests.
  const valid: [string, bigint][] = [
    ["0", 0n],
    ["5s", 5n * S],
    ["-5s", -5n * S],
    ["+5s", 5n * S],
    ["-0", 0n],
    ["+0", 0n],
    ["5.0s", 5n * S],
    ["5.6s", 5n * S + 600n * MS],
    ["5.s", 5n * S],
    [".5s", 500n * MS],
    ["1.004s", S + 4n * MS],
    ["100.00100s", 100n * S + MS],
    ["10ns", 10n],
    ["11us", 11_000n],
    ["12\u00b5s", 12_000n],
    ["12\u03bcs", 12_000n],
    ["13ms", 13n * MS],
    ["15m", 15n * MIN],
    ["16h", 16n * H],
    ["3h30m", 3n * H + 30n * MIN],
    ["10.5s4m", 4n * MIN + 10n * S + 500n * MS],
    ["-2m3.4s", -(2n * MIN + 3n * S + 400n * MS)],
    ["1h2m3s4ms5us6ns", H + 2n * MIN + 3n * S + 4n * MS + 5_000n + 6n],
    ["39h9m14.425s", 39n * H + 9n * MIN + 14n * S + 425n * MS],
    ["52763797000ns", 52763797000n],
    ["0.3333333333333333333h", 20n * MIN],
    ["9007199254740993ns", (1n << 53n) + 1n],
    ["9223372036854775807ns", (1n << 63n) - 1n],
    ["9223372036854775.807us", (1n << 63n) - 1n],
    ["9223372036s854ms775us807ns", (1n << 63n) - 1n],
    ["-9223372036854775808ns", -(1n << 63n)],
    ["-9223372036854775.808us", -(1n << 63n)],
    ["-2562047h47m16.854775808s", -(1n << 63n)],
    ["0.100000000000000000000h", 6n * MIN],
    ["0.830103483285477580700h", 49n * MIN + 48n * S + 372539827n],
    ["1.5h", 90n * MIN],
    ["48h", 48n * H],
  ];
  it.each(valid)("%s", (text, ns) => {
    expect(parseDurationNs(text)).toEqual({ ok: true, value: ns });
  });

  const invalid: [string, string][] = [
    ["", 'time: invalid duration ""'],
    ["x", 'time: invalid duration "x"'],
    ["-", 'time: invalid duration "-"'],
    ["s", 'time: invalid duration "s"'],
    [".", 'time: invalid duration "."'],
    ["-.", 'time: invalid duration "-."'],
    [".s", 'time: invalid duration ".s"'],
    ["+.s", 'time: invalid duration "+.s"'],
    ["1d", 'time: unknown unit "d" in duration "1d"'],
    ["5", 'time: missing unit in duration "5"'],
    ["3", 'time: missing unit in duration "3"'],
    ["1h5", 'time: missing unit in duration "1h5"'],
    ["1.5x", 'time: unknown unit "x" in duration "1.5x"'],
    ["6 s", 'time: unknown unit " s" in duration "6 s"'],
    ["9223372036854775808ns", 'time: invalid duration "9223372036854775808ns"'],
    ["9223372036854775.808us", 'time: invalid duration "9223372036854775.808us"'],
    ["3000000h", 'time: invalid duration "3000000h"'],
    ["\uFFFD", 'time: invalid duration "\\xef\\xbf\\xbd"'],
    ["1\u00e9", 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
    ['1"', 'time: unknown unit "\\"" in duration "1\\""'],
  ];
  it.each(invalid)("rejects %j with Go's text", (text, message) => {
    expect(parseDurationNs(text)).toEqual({ ok: false, error: message });
  });

  it("wraps like Go's uint64 sum (2^63 + 2^63 ns is 0)", () => {
    expect(parseDurationNs("9223372036854775808ns9223372036854775808ns")).toEqual({ ok: true, value: 0n });
  });
});

describe("parseDuration (milliseconds)", () => {
  it("converts to whole milliseconds, truncating toward zero", () => {
    expect(parseDuration("6s")).toEqual({ ok: true, value: 6000 });
    expect(parseDuration("1h30m")).toEqual({ ok: true, value: 5_400_000 });
    expect(parseDuration("1500us")).toEqual({ ok: true, value: 1 });
    expect(parseDuration("999us")).toEqual({ ok: true, value: 0 });
    expect(parseDuration("-1500us")).toEqual({ ok: true, value: -1 });
    expect(parseDuration("-1s")).toEqual({ ok: true, value: -1000 });
  });
  it("passes Go's error through", () => {
    expect(parseDuration("1d")).toEqual({ ok: false, error: 'time: unknown unit "d" in duration "1d"' });
  });
});

describe("formatDuration (Go Duration.String)", () => {
  const cases: [bigint, string][] = [
    [0n, "0s"],
    [1n, "1ns"],
    [1100n, "1.1µs"],
    [2_200_000n, "2.2ms"],
    [3_300n * MS, "3.3s"],
    [4n * MIN + 5n * S, "4m5s"],
    [4n * MIN + 5001n * MS, "4m5.001s"],
    [5n * H + 6n * MIN + 7001n * MS, "5h6m7.001s"],
    [8n * MIN + 1n, "8m0.000000001s"],
    [(1n << 63n) - 1n, "2562047h47m16.854775807s"],
    [-(1n << 63n), "-2562047h47m16.854775808s"],
  ];
  it.each(cases)("%s ns → %s", (ns, text) => {
    expect(formatDurationNs(ns)).toBe(text);
  });
  it("formats millisecond spans", () => {
    expect(formatDuration(172_800_000)).toBe("48h0m0s");
    expect(formatDuration(90_000)).toBe("1m30s");
    expect(formatDuration(500)).toBe("500ms");
    expect(formatDuration(3_600_000)).toBe("1h0m0s");
    expect(formatDuration(-1000)).toBe("-1s");
    expect(formatDuration(90_500)).toBe("1m30.5s");
    expect(formatDuration(1_500)).toBe("1.5s");
    expect(formatDuration(0)).toBe("0s");
    expect(formatDuration(0)).toBe("0s");
  });
  it("round-trips through parseDuration", () => {
    for (const ms of [1, 999, 1000, 1001, 59_999, 60_000, 86_400_000, 123_456_789]) {
      expect(parseDuration(formatDuration(ms))).toEqual({ ok: true, value: ms });
    }
  });
});
