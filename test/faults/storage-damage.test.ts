/**
 * The storage damage matrix: a devnet node commits blocks, stops, and then each file of its data directory is in
 * turn truncated to half, bit-flipped in the middle, or deleted. Every case must either start with every committed
 * block intact (same height or later, the same block ids) or refuse loudly with one line; a start at a lower height
 * (which would then rebuild heights it already served, with new block ids) is never acceptable.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClassicLevel } from "classic-level";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DevnetChain } from "../../src/devnet/chain.js";
import { readHome } from "../../src/devnet/home.js";
import { initNode } from "../../src/devnet/init.js";
import { HostFs } from "../../src/node/host-fs.js";

/** Blocks committed before the tables are compacted, and after (these live only in the write-ahead log). */
const BLOCKS_TABLED = 40;
const BLOCKS = 60;
const T0 = 1_800_000_000_000;
const root = mkdtempSync(join(tmpdir(), "chainsim-damage-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function open(home: string) {
  const cfg = readHome(home);
  if (!cfg.ok) throw new Error(cfg.error.join("\n"));
  return DevnetChain.open({ config: cfg.value, binary: "v1", skipHeights: [], fs: new HostFs(), sync: true });
}

/** Block ids of heights 1..n as the node serves them. */
const blockIds = (c: DevnetChain, n: number): string[] =>
  Array.from({ length: n }, (_, i) => c.blocks.blockIdHash(i + 1));

const pristine = join(root, "pristine");
let committedIds: string[] = [];

beforeAll(async () => {
  const r = await initNode({ home: pristine, chainId: "damage", validators: 1, keySeed: "damage" });
  if (!r.ok) throw new Error(r.error);
  // The first blocks end up in sorted tables (`*.ldb`, by a full compaction), the later ones only in the
  // write-ahead log (`*.log`): the matrix damages both kinds of file.
  const produce = async (from: number, to: number) => {
    const o = await open(pristine);
    if (!o.ok || o.value.kind !== "running") throw new Error("open");
    const c = o.value.chain;
    for (let h = from; h <= to; h++) {
      c.produceBlock(T0 + h * 1000);
      const f = await c.flush();
      if (!f.ok) throw new Error(f.error);
    }
    return c;
  };
  await (await produce(1, BLOCKS_TABLED)).close();
  const db = new ClassicLevel(join(pristine, "data", "application.db"), { createIfMissing: false });
  await db.open();
  await db.compactRange("\u0000", "\uffff", { keyEncoding: "utf8" });
  await db.close();
  const c = await produce(BLOCKS_TABLED + 1, BLOCKS);
  committedIds = blockIds(c, BLOCKS);
  await c.close();
  const kinds = new Set(storageFiles().map((f) => f.replace(/^.*\.(ldb|log)$/, "$1")));
  expect(kinds.has("ldb") && kinds.has("log"), storageFiles().join(" ")).toBe(true);
});

type Damage = "truncate" | "bit-flip" | "delete";
const DAMAGES: readonly Damage[] = ["truncate", "bit-flip", "delete"];

function damage(path: string, how: Damage): void {
  if (how === "delete") rmSync(path, { force: true });
  else if (how === "truncate") truncateSync(path, Math.floor(statSync(path).size / 2));
  else {
    const b = readFileSync(path);
    if (b.length === 0) return;
    const i = Math.floor(b.length / 2);
    b[i] = b[i]! ^ 0x10;
    writeFileSync(path, b);
  }
}

/** The storage files: the commit record and every file of the database except its lock. */
const storageFiles = (): string[] => [
  join("data", "commit-record"),
  ...readdirSync(join(pristine, "data", "application.db"))
    .filter((n) => n !== "LOCK")
    .sort()
    .map((n) => join("data", "application.db", n)),
];

describe("storage damage matrix", () => {
  it("each file truncated, bit-flipped or deleted: starts intact or refuses with one line, never rolls back", async () => {
    const outcomes: string[] = [];
    let n = 0;
    for (const file of storageFiles()) {
      for (const how of DAMAGES) {
        const home = join(root, `case-${n++}`);
        cpSync(pristine, home, { recursive: true });
        damage(join(home, file), how);
        const o = await open(home);
        if (!o.ok) {
          expect(o.error).not.toContain("\n");
          expect(o.error).toMatch(/refusing to start/);
          outcomes.push(`${file} ${how}: refused (${o.error.split(";")[0]})`);
        } else if (o.value.kind === "halted") {
          await o.value.close();
          outcomes.push(`${file} ${how}: halted (${o.value.halt.kind})`);
        } else {
          const c = o.value.chain;
          const height = c.height;
          const ids = blockIds(c, Math.min(height, BLOCKS));
          await c.close();
          // Never a rollback: every committed block is there with the id it was served with.
          expect(height, `${file} ${how}`).toBeGreaterThanOrEqual(BLOCKS);
          expect(ids, `${file} ${how}`).toEqual(committedIds);
          outcomes.push(`${file} ${how}: started intact at ${height}`);
        }
        rmSync(home, { recursive: true, force: true });
      }
    }
    // The matrix is visible in the test log (the closing note quotes it).
    console.log(outcomes.join("\n"));
    expect(outcomes.length).toBe(storageFiles().length * DAMAGES.length);
  });

  it("a missing CURRENT is refused before LevelDB touches the directory (no new database, no table deleted)", async () => {
    const home = join(root, "no-current");
    cpSync(pristine, home, { recursive: true });
    const db = join(home, "data", "application.db");
    rmSync(join(db, "CURRENT"));
    const before = readdirSync(db).sort();
    const o = await open(home);
    expect(o.ok).toBe(false);
    expect(o.ok ? "" : o.error).toMatch(/^no database at .*application\.db \(its CURRENT file is missing\)/);
    expect(readdirSync(db).sort()).toEqual(before);
  });
});
