import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// docs/mutation.md agrees with the sources and with itself: every `// Stryker disable` directive has its row, and the
// survivor totals the page states are the counts of its own section tables.
const DOC = readFileSync("docs/mutation.md", "utf8");

/** The non-test TypeScript files under `dir`, recursively (bounded depth). */
function sources(dir: string, depth = 6): string[] {
  if (depth < 0) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return e.name === "gen" ? [] : sources(p, depth - 1);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

/** `file mutator` of every directive, sorted. */
function directives(): string[] {
  const out: string[] = [];
  for (const file of sources("src"))
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const m = /^\s*\/\/\s*Stryker disable(?:\s+next-line)?\s+(\w+)/.exec(line);
      if (m !== null) out.push(`${file} ${m[1]}`);
    }
  return out.sort();
}

/** The rows of the page's "Disabled mutants" table as `file mutator`, sorted. */
function documented(): string[] {
  const section = DOC.slice(DOC.indexOf("## Disabled mutants"));
  const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| file |")));
  return [...table.matchAll(/^\| `([^`]+)` \| (\w+) \|/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
}

describe("docs/mutation.md", () => {
  it("documents every `Stryker disable` directive of the sources, one row each", () => {
    expect(directives().length).toBeGreaterThan(0);
    expect(directives()).toEqual(documented());
  });

  it("states the survivor totals its section tables add up to", () => {
    let equivalent = 0;
    let unreachable = 0;
    let section = "";
    for (const line of DOC.split("\n")) {
      if (line.startsWith("## ")) section = line;
      if (!section.includes("survivors, accounted for") || !/^\| \d+ \| \d+ \| \w+ \|/.test(line)) continue;
      const cells = line.replaceAll("\\|", "¦").split("|");
      const cls = cells[5]!.trim();
      const reason = cells[6]!.trim();
      // A row whose own mutant is disabled (its reason says so first, or its status reads "(disabled)") is not a
      // mutant Stryker counts; rows that only mention another row's directive are.
      if (reason.startsWith("Disabled by") || /; disabled by a directive\./.test(reason) || line.includes("(disabled)"))
        continue;
      if (cls.startsWith("equivalent")) equivalent++;
      if (cls.startsWith("unreachable")) unreachable++;
    }
    expect(DOC).toContain(`equivalent (${equivalent}) or unreachable (${unreachable})`);
    expect(DOC).toContain(`${equivalent + unreachable} match, by line, mutator and replacement`);
  });
});
