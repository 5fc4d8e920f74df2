import { describe, expect, it } from "vitest";
import { checkArity, type FlagSpec, parseFlags } from "./cobra-flags.js";

const SPECS: readonly FlagSpec[] = [
  { name: "height", kind: "int64" },
  { name: "output", shorthand: "o", kind: "string" },
  { name: "dry", shorthand: "d", kind: "bool" },
];

const parsed = (...args: string[]) => {
  const r = parseFlags(args, SPECS);
  if (!r.ok) throw new Error(r.error);
  return { values: Object.fromEntries(r.value.values), positionals: r.value.positionals };
};
const error = (...args: string[]) => {
  const r = parseFlags(args, SPECS);
  return r.ok ? "" : r.error;
};

describe("pflag-compatible parsing", () => {
  it("accepts interspersed flags in every pflag spelling", () => {
    expect(parsed("a", "--height", "0x10", "b", "-o=json", "-d")).toEqual({
      values: { height: 16n, output: "json", dry: true },
      positionals: ["a", "b"],
    });
    expect(parsed("--height=-5", "-ojson", "--dry=false")).toEqual({
      values: { height: -5n, output: "json", dry: false },
      positionals: [],
    });
    expect(parsed("-do", "text", "--", "--height", "x")).toEqual({
      values: { dry: true, output: "text" },
      positionals: ["--height", "x"],
    });
    // A value flag takes the next argument whatever it looks like.
    expect(parsed("-o", "--height")).toEqual({ values: { output: "--height" }, positionals: [] });
  });

  it("reports pflag's errors", () => {
    expect(error("--expedited")).toBe("unknown flag: --expedited");
    expect(error("-x")).toBe("unknown shorthand flag: 'x' in -x");
    expect(error("--height")).toBe("flag needs an argument: --height");
    expect(error("-o")).toBe("flag needs an argument: 'o' in -o");
    expect(error("--height", "abc")).toBe(
      'invalid argument "abc" for "--height" flag: strconv.ParseInt: parsing "abc": invalid syntax',
    );
    expect(error("--height", "99999999999999999999")).toBe(
      'invalid argument "99999999999999999999" for "--height" flag: strconv.ParseInt: parsing "99999999999999999999": value out of range',
    );
    expect(error("--dry=maybe")).toBe(
      'invalid argument "maybe" for "-d, --dry" flag: strconv.ParseBool: parsing "maybe": invalid syntax',
    );
  });

  it("checks arity with cobra's texts", () => {
    expect(checkArity("exact", 1, 0)).toBe("accepts 1 arg(s), received 0");
    expect(checkArity("exact", 0, 1)).toBe("accepts 0 arg(s), received 1");
    expect(checkArity("max", 1, 2)).toBe("accepts at most 1 arg(s), received 2");
    expect(checkArity("max", 1, 1)).toBeUndefined();
    expect(checkArity("exact", 1, 1)).toBeUndefined();
  });
});
