/**
 * Fuzzed scenario documents: real scenario files, mutated as text (cut, repeat, splice foreign bytes) and as data
 * (a value anywhere replaced by something of another shape, deep, huge or out of range), loaded and run through the
 * CLI's `run` command in-process. Whatever the document, the command ends cleanly: exit 0, 1 or 2, every error on
 * one line naming the file, never an exception, within bounded time. About 1,000 documents in `npm test`; set
 * FUZZ_RUNS for more (e.g. FUZZ_RUNS=10000) and FUZZ_SEED for other documents. The seed is fixed by default: a
 * document that kills the process (memory, a hang) leaves no fast-check report, so it must be reproducible by seed.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { runCommand } from "../../src/cli/run.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const DOC_MS_MAX = 20_000;

const scenarioDir = join(import.meta.dirname, "../../scenarios");
const sources = readdirSync(scenarioDir)
  .filter((n) => n.endsWith(".yaml"))
  .sort()
  .slice(0, 12)
  .map((n) => readFileSync(join(scenarioDir, n), "utf8"));

const dir = mkdtempSync(join(tmpdir(), "chainsim-fuzz-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Values a careless or hostile author might put anywhere. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    "2562047h",
    "-2562047h",
    "9999-12-31T23:59:59Z",
    "0000-01-01T00:00:00Z",
    "+2562047h",
    "1e308",
    Number.MAX_SAFE_INTEGER,
    -1,
    0,
    1e21,
    "",
    "__proto__",
    "val1",
    "v1",
    "yes",
    "\u0000",
    "\uD800",
  ),
  fc.integer({ min: 0, max: 80 }).map((d) => JSON.parse(`${"[".repeat(d)}1${"]".repeat(d)}`) as unknown),
  fc.array(fc.string(), { maxLength: 50 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.integer(), { maxKeys: 40 }),
);

/** Replaces the value at a random path of `doc` (chosen by `pick`). */
function mutateAt(doc: Json, pick: number[], value: unknown): unknown {
  if (doc === null || typeof doc !== "object" || pick.length === 0) return value;
  const [i, ...rest] = pick as [number, ...number[]];
  if (Array.isArray(doc)) {
    if (doc.length === 0) return [value];
    const k = i % doc.length;
    return doc.map((v, j) => (j === k ? mutateAt(v, rest, value) : v));
  }
  const keys = Object.keys(doc);
  if (keys.length === 0) return { x: value };
  const key = keys[i % keys.length]!;
  return { ...doc, [key]: mutateAt(doc[key]!, rest, value) };
}

const dataMutation = fc
  .record({
    src: fc.nat(),
    path: fc.array(fc.nat(), { minLength: 0, maxLength: 6 }),
    value: hostileValue,
    json: fc.boolean(),
  })
  .map(({ src, path, value, json }) => {
    const doc = parse(sources[src % sources.length]!) as Json;
    const mutated = mutateAt(doc, path, value);
    return json ? { ext: "json", text: JSON.stringify(mutated) ?? "null" } : { ext: "yaml", text: stringify(mutated) };
  });

const textMutation = fc
  .record({
    src: fc.nat(),
    at: fc.nat(),
    len: fc.nat({ max: 400 }),
    kind: fc.constantFrom("cut", "repeat", "splice", "truncate"),
    junk: fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom("&a [x]\n", "*a", "<<: *a", "!!binary", "---\n", "\t", ": :", "{[", "%YAML 1.1\n", "? "),
      fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString("latin1")),
    ),
    ext: fc.constantFrom("yaml", "json"),
  })
  .map(({ src, at, len, kind, junk, ext }) => {
    let text = sources[src % sources.length]!;
    if (ext === "json") text = JSON.stringify(parse(text));
    const i = at % (text.length + 1);
    if (kind === "cut") text = text.slice(0, i) + text.slice(i + len);
    else if (kind === "repeat") text = text.slice(0, i + len) + text.slice(i, i + len) + text.slice(i + len);
    else if (kind === "splice") text = text.slice(0, i) + junk + text.slice(i);
    else text = text.slice(0, i);
    return { ext, text };
  });

describe("fuzzed scenario documents", () => {
  it(
    `${RUNS} mutated documents (seed ${SEED}): exit 0/1/2, one-line errors naming the file, no exception`,
    () => {
      let n = 0;
      const exits = new Map<number, number>();
      fc.assert(
        fc.property(fc.oneof(dataMutation, textMutation), ({ ext, text }) => {
          const file = join(dir, `doc${n++ % 50}.${ext}`);
          writeFileSync(file, text);
          const out: string[] = [];
          const err: string[] = [];
          const t = performance.now();
          const code = runCommand(
            [file],
            {},
            (s) => out.push(s),
            (s) => err.push(s),
          );
          const ms = performance.now() - t;
          exits.set(code, (exits.get(code) ?? 0) + 1);
          expect([0, 1, 2]).toContain(code);
          if (code === 2) {
            expect(err.length).toBeGreaterThan(0);
            for (const line of err) {
              expect(line.startsWith(`${file}: `), line).toBe(true);
              expect(line.includes("\n"), line).toBe(false);
            }
          }
          expect(ms).toBeLessThan(DOC_MS_MAX);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      // The outcomes are visible in the test log (the closing note quotes them).
      console.log(
        `${RUNS} documents, seed ${SEED}: ${[...exits]
          .sort()
          .map(([c, n]) => `exit ${c}: ${n}`)
          .join(", ")}`,
      );
      // The mutations reach every outcome: the fuzzer is not only producing syntax errors.
      expect(exits.get(2) ?? 0).toBeGreaterThan(0);
      expect(exits.get(0) ?? 0).toBeGreaterThan(0);
    },
    60_000 + RUNS * 100,
  );
});
