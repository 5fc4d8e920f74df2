import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { parseScenario } from "../src/scenario/index.js";
import { runScenario } from "../src/scenario/runner.js";
import { ScenarioSchema } from "../src/scenario/schema.js";

// The repository explains itself: the docs under docs/ are complete (every key of the scenario validator is
// described, every YAML example loads and passes), and no tracked file cites a document that is not in the
// repository (the design notes the project was built from live outside it).

const ROOT = normalize(join(import.meta.dirname, ".."));
const read = (path: string): string => readFileSync(join(ROOT, path), "utf8");

const SCENARIO_DOC = "docs/scenario-format.md";

/** Names of the external design notes; a citation of one of them must resolve to a file in the repository. */
const EXTERNAL_NOTES = /^(scenarios|node-api|governance|upgrade-module|sidecar|simulation-testing|libraries)$/;

function trackedTextFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" });
  return out
    .split("\0")
    .filter((f) => f !== "" && !f.startsWith("node_modules/") && f !== "package-lock.json")
    .filter((f) => !/\.(png|jpe?g|gif|ico|woff2?|bin|gz|tar|ldb|pb)$/i.test(f))
    .filter((f) => existsSync(join(ROOT, f)));
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

function headings(markdown: string): string[] {
  return markdown
    .split("\n")
    .filter((l) => /^#{1,6} /.test(l))
    .map((l) => l.replace(/^#+ /, ""));
}

/** Section numbers of a doc: `## 2.3 PreBlocker` → `2.3`, `## 1. The reference` → `1`. */
function sectionNumbers(markdown: string): Set<string> {
  const out = new Set<string>();
  for (const h of headings(markdown)) {
    const m = /^(\d+(?:\.\d+)*)\.? /.exec(h);
    if (m?.[1] !== undefined) out.add(m[1]);
  }
  return out;
}

/** Resolves a cited path the way a reader would: relative to the citing file, or to the repository root. */
function resolves(citingFile: string, cited: string): string | undefined {
  for (const candidate of [join(dirname(citingFile), cited), cited]) {
    const p = normalize(candidate);
    if (!p.startsWith("..") && existsSync(join(ROOT, p))) return p;
  }
  return undefined;
}

interface CitationProblem {
  readonly file: string;
  readonly line: number;
  readonly problem: string;
}

/** Every problem with the citations of one file's text. */
function citationProblems(file: string, text: string, docSections: (doc: string) => Set<string>) {
  const problems: CitationProblem[] = [];
  text.split("\n").forEach((line, i) => {
    const at = (problem: string) => problems.push({ file, line: i + 1, problem });
    if (/\.\.\/shared|\/work\/shared|shared\/spec\//.test(line)) at("cites the design notes outside the repository");
    if (/\bspec §/.test(line)) at('cites "spec §", which is not in the repository');
    for (const m of line.matchAll(/([\w./-]+)\.md\b`?( ?§ ?(\d+(?:\.\d+)*))?/g)) {
      const [whole, stem = "", withSection, section] = m;
      const base = stem.slice(stem.lastIndexOf("/") + 1);
      if (!EXTERNAL_NOTES.test(base) && withSection === undefined) continue;
      const cited = `${stem}.md`;
      const path = resolves(file, cited);
      if (path === undefined) {
        at(`cites ${whole.trim()}, which is not in the repository`);
        continue;
      }
      if (section !== undefined && !docSections(path).has(section))
        at(`cites ${path} §${section}, which has no such section`);
    }
    if (line.includes("§") && !/[\w-]+\.md`? ?§/.test(line) && !file.startsWith("docs/"))
      at("a § without the document it belongs to on the same line");
  });
  return problems;
}

describe("citations", () => {
  const sectionsCache = new Map<string, Set<string>>();
  const docSections = (doc: string): Set<string> => {
    let s = sectionsCache.get(doc);
    if (s === undefined) {
      s = sectionNumbers(read(doc));
      sectionsCache.set(doc, s);
    }
    return s;
  };

  it("no tracked file cites a document or section that is not in the repository", () => {
    const problems = trackedTextFiles()
      .filter((f) => f !== "test/docs.test.ts")
      .flatMap((f) => citationProblems(f, read(f), docSections));
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.problem}`)).toEqual([]);
  });

  it("the check catches the citations it exists for", () => {
    const cite = (text: string) => citationProblems("src/x.ts", text, docSections).map((p) => p.problem);
    expect(cite("// see ../shared/spec/scenarios.md")).not.toEqual([]);
    expect(cite("// the rule of governance.md §15")).toEqual([
      "cites governance.md §15, which is not in the repository",
    ]);
    expect(cite("// scenarios.md")).toEqual(["cites scenarios.md, which is not in the repository"]);
    expect(cite("// docs/fidelity.md §9.9")).toEqual(["cites docs/fidelity.md §9.9, which has no such section"]);
    expect(cite('describe("ScheduleUpgrade (§2)")')).toEqual([
      "a § without the document it belongs to on the same line",
    ]);
    expect(cite("// spec §7.1")).toContain('cites "spec §", which is not in the repository');
    expect(cite("// docs/fidelity.md §2.3 step 4b, §2.5; docs/node-api.md §2.6")).toEqual([]);
  });

  it("every link between the docs and from the README lands on a heading", () => {
    const bad: string[] = [];
    for (const file of ["README.md", ...trackedTextFiles().filter((f) => /^docs\/.*\.md$/.test(f))]) {
      for (const m of read(file).matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)) {
        const [, target = "", anchor = ""] = m;
        const path = target === "" ? file : resolves(file, target);
        if (path === undefined) {
          bad.push(`${file}: link to missing ${target}`);
          continue;
        }
        if (!headings(read(path)).map(headingAnchor).includes(anchor))
          bad.push(`${file}: no heading #${anchor} in ${path}`);
      }
    }
    expect(bad).toEqual([]);
  });
});

describe(SCENARIO_DOC, () => {
  const doc = read(SCENARIO_DOC);
  const examples = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  /** The doc without its fenced blocks: the text a reader reads as prose and tables. */
  const prose = doc.replace(/```[\s\S]*?```/g, "");

  it("has examples", () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  examples.forEach((text, i) => {
    const name = (parseYaml(text) as { name?: string }).name ?? `example ${i + 1}`;
    it(`example "${name}" loads with the scenario loader and its expectations hold`, () => {
      const loaded = parseScenario(`${SCENARIO_DOC}#example-${i + 1}.yaml`, text);
      expect(loaded.ok ? [] : loaded.error.map((e) => `${e.path}: ${e.message}`)).toEqual([]);
      if (!loaded.ok) return;
      const report = runScenario(loaded.value).report;
      expect(report.failures).toEqual([]);
    });
  });

  it("mentions every key of the scenario validator", () => {
    const mentioned = new Set<string>();
    for (const m of prose.matchAll(/`([^`\n]+)`/g))
      for (const w of (m[1] ?? "").matchAll(/[$\w]+/g)) mentioned.add(w[0]);
    const missing = [...schemaKeys(ScenarioSchema)].filter((k) => !mentioned.has(k)).sort();
    expect(missing).toEqual([]);
  });

  it("the key walk sees nested keys (so the check above can fail)", () => {
    const keys = schemaKeys(ScenarioSchema);
    for (const k of ["name", "steps", "submitProposal", "expeditedFallbackVotes", "failedReason", "keepRecent", "on"])
      expect(keys).toContain(k);
  });

  it("lists every key of the run --json object", () => {
    const first = examples[1] ?? "";
    const loaded = parseScenario("example.yaml", first);
    if (!loaded.ok) throw new Error("example 2 does not load");
    const r = runScenario(loaded.value).report;
    const objects: object[] = [r, r.final, ...Object.values(r.final.nodes), ...r.proposals, ...r.halts, ...r.steps];
    if (r.final.halted !== null) objects.push(r.final.halted);
    const section3 = prose.slice(prose.indexOf("## 3. "));
    const mentioned = new Set(
      [...section3.matchAll(/`([^`\n]+)`/g)].flatMap((m) => [...(m[1] ?? "").matchAll(/\w+/g)].map((w) => w[0])),
    );
    const missing = [...new Set(objects.flatMap((o) => Object.keys(o)))].filter((k) => !mentioned.has(k)).sort();
    expect(missing).toEqual([]);
    expect(objects.length).toBeGreaterThan(5);
  });
});

/** Every object key reachable in a zod schema: top level, steps, actions, expectations, chain, nodes... */
function schemaKeys(schema: z.ZodType): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (s: unknown): void => {
    if (s === null || typeof s !== "object" || seen.has(s)) return;
    seen.add(s);
    const def = (s as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
    if (def === undefined) return;
    const shape = def.shape as Record<string, unknown> | undefined;
    if (def.type === "object" && shape !== undefined) {
      for (const [k, v] of Object.entries(shape)) {
        keys.add(k);
        walk(v);
      }
    }
    for (const field of ["innerType", "element", "valueType", "in", "out", "schema"]) walk(def[field]);
    if (Array.isArray(def.options)) for (const o of def.options) walk(o);
  };
  walk(schema);
  return keys;
}
