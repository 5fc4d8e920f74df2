// The unit detector's test files for the files under mutation (docs/mutation.md, "The detectors"): computed when the
// detector starts, from the import graph and the layer table, so the list cannot go stale.
//
// 1. The candidates are the unit suite's test files (UNIT_TEST_FOLDERS: the same folders as
//    mutation/vitest.units.config.ts's `include`).
// 2. A candidate is related to a mutated file when the mutated file is in its import closure: its relative imports
//    (`import`/`export ... from`, `import("...")`, side-effect `import "..."`), followed through the test kits.
// 3. Of those, the detector keeps the ones in the mutated file's own layer (lint/layers.cjs): a unit test of a layer
//    tests that layer; the layers above reach the file only through the layers between, whose own tests are kept
//    when their files are mutated. This keeps a file's dry run to its layer's tests (a minute) instead of the whole
//    suite (over 30 minutes under load).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { detectorFiles } from "./detectors.mjs";

/** The unit suite's folders (mutation/vitest.units.config.ts); `src/<folder>` for each, and `models`. */
const UNIT_TEST_FOLDERS = [
  "src/core",
  "src/store",
  "src/bank",
  "src/gov",
  "src/upgrade",
  "src/app",
  "src/chain",
  "src/scenario",
  "src/harness",
  "src/explore",
  "src/faults",
  "models",
];

/** Most files followed in one import closure: a bound on the walk (the repository has under 1,000 sources). */
const MAX_CLOSURE_FILES = 5_000;

const IMPORT =
  /(?:import|export)\s[^;]*?\sfrom\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;

/** The repository files a source imports by relative path (`.js` specifiers resolve to the `.ts` source). */
function importsOf(file, cache) {
  const known = cache.get(file);
  if (known !== undefined) return known;
  const found = [];
  for (const m of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec.startsWith(".")) continue;
    const base = resolve(dirname(file), spec);
    const hit = [base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), base, `${base}.ts`].find(
      (c) => /\.(ts|mts|js|mjs)$/.test(c) && existsSync(c),
    );
    if (hit !== undefined) found.push(hit);
  }
  cache.set(file, found);
  return found;
}

/** Every file a test file reaches through relative imports, itself included. */
function closureOf(file, cache) {
  const seen = new Set([file]);
  const queue = [file];
  while (queue.length > 0) {
    if (seen.size > MAX_CLOSURE_FILES)
      throw new Error(`related-tests: ${file} reaches over ${MAX_CLOSURE_FILES} files`);
    for (const next of importsOf(queue.shift(), cache))
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
  }
  return seen;
}

/** The layer (lint/layers.cjs) of a repository-relative path, or its top folder outside src/. */
function layerOf(path, layers) {
  const parts = path.split("/");
  if (parts[0] !== "src") return parts[0];
  return layers.find(([, folders]) => folders.includes(parts[1]))?.[0] ?? `src/${parts[1]}`;
}

/** The unit suite's test files under `root`, repository-relative, sorted. */
function unitTestFiles(root) {
  return UNIT_TEST_FOLDERS.filter((d) => existsSync(join(root, d)))
    .flatMap((d) =>
      readdirSync(join(root, d), { recursive: true })
        .map((f) => `${d}/${String(f).split(sep).join("/")}`)
        .filter((f) => f.endsWith(".test.ts")),
    )
    .sort();
}

/**
 * The unit test files related to the mutated files (`mutate`: paths, or Stryker's `path:start-end`), repository-
 * relative and sorted: those whose import closure holds a mutated file and that live in that file's layer.
 */
export function relatedTests(mutate, root = process.cwd()) {
  const { LAYERS } = createRequire(import.meta.url)(join(root, "lint/layers.cjs"));
  const targets = mutate.map((m) => m.replace(/:\d+-\d+$/, ""));
  const cache = new Map();
  return unitTestFiles(root).filter((test) => {
    const closure = closureOf(resolve(root, test), cache);
    return targets.some(
      (t) =>
        closure.has(resolve(root, t)) && layerOf(t, LAYERS) === layerOf(relative(root, resolve(root, test)), LAYERS),
    );
  });
}

/**
 * The unit detector's test files for MUTATE_FILES (comma-separated, as npm run mutate passes them; undefined: the
 * detector's files). Throws when no test of the layer reaches the files: the detector would have nothing to run.
 */
export function unitDetectorTests(mutateFiles, root = process.cwd()) {
  const mutated = mutateFiles === undefined || mutateFiles === "" ? detectorFiles("units") : mutateFiles.split(",");
  const tests = relatedTests(mutated, root);
  if (tests.length === 0) throw new Error(`units: no unit test file of its layer imports ${mutated.join(", ")}`);
  return tests;
}
