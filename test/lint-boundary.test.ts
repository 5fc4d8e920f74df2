import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The determinism lint ban (biome.json's override with lint/deterministic-core.grit) and the import rules
 * (.dependency-cruiser.cjs over lint/layers.cjs) describe one boundary: the ban covers every source file except the
 * I/O edges and tests, and the edges are exactly lint/layers.cjs's EDGES. A new source folder must be placed in a
 * layer, and it is then under the ban.
 */
const ROOT = join(import.meta.dirname, "..");
const { LAYERS, EDGES } = createRequire(import.meta.url)("../lint/layers.cjs") as {
  LAYERS: [string, string[]][];
  EDGES: string[];
};

interface Override {
  includes: string[];
  plugins?: string[];
  linter?: { rules?: { style?: { noRestrictedGlobals?: unknown } } };
}
const biome = JSON.parse(readFileSync(join(ROOT, "biome.json"), "utf8")) as { overrides: Override[] };
const ban = biome.overrides.find((o) => o.plugins?.includes("./lint/deterministic-core.grit"));

/** Whether biome's override applies to a path: some positive pattern matches and no negated one does. */
function banned(path: string, includes: readonly string[]): boolean {
  const glob = (g: string) =>
    new RegExp(
      `^${g
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*\*\//g, "(.*/)?")
        .replace(/\*\*/g, ".*")
        .replace(/(?<!\.)\*/g, "[^/]*")}$`,
    );
  const pos = includes.filter((g) => !g.startsWith("!")).map(glob);
  const neg = includes.filter((g) => g.startsWith("!")).map((g) => glob(g.slice(1)));
  return pos.some((r) => r.test(path)) && !neg.some((r) => r.test(path));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith("src/gen/"));
}

describe("the determinism lint ban and the layer table agree", () => {
  it("the ban exists, with the grit plugin and the restricted globals", () => {
    expect(ban).toBeDefined();
    expect(ban?.linter?.rules?.style?.noRestrictedGlobals).toBeDefined();
  });

  it("every folder under src/ is in a layer or is an I/O edge", () => {
    const placed = new Set([...LAYERS.flatMap(([, folders]) => folders), ...EDGES]);
    const folders = readdirSync(join(ROOT, "src"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !placed.has(f))).toEqual([]);
  });

  it("the source files outside the ban are exactly the I/O edges' files and tests", () => {
    const includes = ban?.includes ?? [];
    const files = ["src", "models", "properties"].flatMap(sourceFiles);
    const outside = files.filter((f) => !banned(f, includes) && !f.endsWith(".test.ts"));
    const outsideFolders = [...new Set(outside.map((f) => f.split("/").slice(0, 2).join("/")))].sort();
    expect(outsideFolders).toEqual(EDGES.map((e) => `src/${e}`).sort());
    // And every edge file is outside, every other non-test source file inside.
    for (const f of files.filter((x) => !x.endsWith(".test.ts"))) {
      const edge = EDGES.some((e) => f.startsWith(`src/${e}/`));
      expect({ file: f, banned: banned(f, includes) }).toEqual({ file: f, banned: !edge });
    }
  });
});
