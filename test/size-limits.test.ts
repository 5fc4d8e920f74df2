/**
 * The size check (issue #27, item 4): no hand-written source file over 400 lines and no function over 100 lines
 * (test/kit/source-size.ts says which files count and how functions are measured).
 *
 * The files and functions already over the limit when the check came are listed below with their sizes then: a
 * ratchet. A listed one may shrink, never grow; one that shrinks must have its number lowered here (or its entry
 * removed once it is within the limit), so it cannot grow back; anything new over the limit fails. To get off the
 * list, split the file or the function (docs/extending.md names the usual seams).
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileLines, functionSizes, handWrittenSources, readSource } from "./kit/source-size.js";

const FILE_LINES_MAX = 400;
const FUNCTION_LINES_MAX = 100;

/** Files over FILE_LINES_MAX: path → lines allowed (never more than they had). */
const FILE_ALLOWANCE: Readonly<Record<string, number>> = {};

/** Functions over FUNCTION_LINES_MAX: `<path> <qualified name>` → lines allowed. */
const FUNCTION_ALLOWANCE: Readonly<Record<string, number>> = {};

const ROOT = join(import.meta.dirname, "..");

interface Sizes {
  readonly files: ReadonlyMap<string, number>;
  /** Largest size per function key (two functions may share a qualified name). */
  readonly functions: ReadonlyMap<string, number>;
}

function measure(): Sizes {
  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const path of handWrittenSources(ROOT)) {
    const text = readSource(ROOT, path);
    files.set(path, fileLines(text));
    for (const f of functionSizes(path, text)) {
      const key = `${path} ${f.name}`;
      functions.set(key, Math.max(functions.get(key) ?? 0, f.lines));
    }
  }
  return { files, functions };
}

/** Entries over `max` that have no allowance or exceed it, as readable lines. */
function overruns(sizes: ReadonlyMap<string, number>, max: number, allowance: Readonly<Record<string, number>>) {
  const out: string[] = [];
  for (const [key, lines] of sizes) {
    if (lines <= max) continue;
    const allowed = allowance[key];
    if (allowed === undefined) out.push(`${key}: ${lines} lines (limit ${max})`);
    else if (lines > allowed) out.push(`${key}: ${lines} lines, grew past its allowance of ${allowed}`);
  }
  return out;
}

/** Allowances larger than needed: the entry shrank (lower it) or is gone or within the limit (remove it). */
function slack(sizes: ReadonlyMap<string, number>, max: number, allowance: Readonly<Record<string, number>>) {
  const out: string[] = [];
  for (const [key, allowed] of Object.entries(allowance)) {
    const lines = sizes.get(key);
    if (lines === undefined) out.push(`${key}: gone, remove its allowance`);
    else if (lines <= max) out.push(`${key}: ${lines} lines, within the limit: remove its allowance`);
    else if (lines < allowed) out.push(`${key}: ${lines} lines, lower its allowance from ${allowed}`);
  }
  return out;
}

describe("source size limits", () => {
  const sizes = measure();

  it("measures the hand-written sources: src, models, properties, bench, scripts (not generated code or tests)", () => {
    const paths = [...sizes.files.keys()];
    for (const root of ["src/", "models/", "properties/", "bench/", "scripts/"]) {
      expect(
        paths.some((p) => p.startsWith(root)),
        root,
      ).toBe(true);
    }
    expect(paths.filter((p) => p.startsWith("src/gen/") || p.endsWith(".test.ts"))).toEqual([]);
    expect(paths).not.toContain("src/scenario/schema.ts");
  });

  it(`no file over ${FILE_LINES_MAX} lines and no function over ${FUNCTION_LINES_MAX}, beyond the allowances`, () => {
    expect([
      ...overruns(sizes.files, FILE_LINES_MAX, FILE_ALLOWANCE),
      ...overruns(sizes.functions, FUNCTION_LINES_MAX, FUNCTION_ALLOWANCE),
    ]).toEqual([]);
  });

  it("the allowances are tight: an offender that shrank keeps its new size as its allowance", () => {
    expect([
      ...slack(sizes.files, FILE_LINES_MAX, FILE_ALLOWANCE),
      ...slack(sizes.functions, FUNCTION_LINES_MAX, FUNCTION_ALLOWANCE),
    ]).toEqual([]);
  });

  it("measures functions on the syntax tree: methods, arrows and nested functions by their qualified names", () => {
    const body = (n: number) => Array.from({ length: n }, (_, i) => `  const x${i} = ${i};`).join("\n");
    const text = [
      "/** doc */",
      "export function outer(): void {",
      body(2),
      "  const inner = () => {",
      body(3),
      "  };",
      "}",
      "class K {",
      "  #m(): number {",
      "    return 1; // a '}' in a comment and '{' in a string do not count",
      "  }",
      "}",
    ].join("\n");
    expect(functionSizes("x.ts", text)).toEqual([
      { name: "outer", line: 2, lines: 9 },
      { name: "outer.inner", line: 5, lines: 5 },
      { name: "K.#m", line: 12, lines: 3 },
    ]);
    expect(fileLines(`${text}\n`)).toBe(15);
  });
});
