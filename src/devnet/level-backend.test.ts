import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { fromUtf8, toHex, utf8 } from "../core/bytes.js";
import { pruningOptions } from "../store/pruning.js";
import { VersionedMultiStore } from "../store/versioned.js";
import { LevelBackend } from "./level-backend.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "level-backend-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const open = async (dir: string) => {
  const r = await LevelBackend.open(dir, { sync: false, createIfMissing: true });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const entries = (b: LevelBackend) => [...b.iterator(undefined, undefined)].map(([k, v]) => [fromUtf8(k), fromUtf8(v)]);

describe("LevelBackend", () => {
  it("serves writes at once and persists exactly the flushed ones", async () => {
    const dir = tempDir();
    const b = await open(dir);
    b.write([
      { key: utf8("b"), value: utf8("2") },
      { key: utf8("a"), value: utf8("1") },
    ]);
    expect(entries(b)).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
    expect(b.pendingWrites).toBe(2);
    expect((await b.flush()).ok).toBe(true);
    b.write([{ key: utf8("c"), value: utf8("3") }]); // never flushed
    b.write([{ key: utf8("a"), value: undefined }]);
    expect(entries(b)).toEqual([
      ["b", "2"],
      ["c", "3"],
    ]);
    await b.close();
    const again = await open(dir);
    expect(entries(again)).toEqual([
      ["a", "1"],
      ["b", "2"],
    ]);
    await again.close();
  });

  it("flushes auxiliary records in the same batch, outside the state keyspace", async () => {
    const dir = tempDir();
    const b = await open(dir);
    b.write([{ key: utf8("k"), value: utf8("v") }]);
    await b.flush([{ key: utf8("block/1"), value: utf8("meta") }]);
    expect(b.get(utf8("block/1"))).toBeUndefined();
    expect(fromUtf8(b.getAux(utf8("block/1"))!)).toBe("meta");
    await b.close();
    const again = await open(dir);
    expect(entries(again)).toEqual([["k", "v"]]);
    const aux: string[] = [];
    for await (const [k, v] of again.auxEntries(utf8("block/"), utf8("block0")))
      aux.push(`${fromUtf8(k)}=${fromUtf8(v)}`);
    expect(aux).toEqual(["block/1=meta"]);
    await again.close();
  });

  it("forks are independent snapshots of the current state", async () => {
    const b = await open(tempDir());
    b.write([{ key: utf8("x"), value: utf8("1") }]);
    const f = b.fork();
    const it = b.iterator(undefined, undefined);
    b.write([{ key: utf8("x"), value: utf8("2") }]);
    f.write([{ key: utf8("y"), value: utf8("3") }]);
    expect(fromUtf8(f.get(utf8("x"))!)).toBe("1");
    expect(b.get(utf8("y"))).toBeUndefined();
    expect([...it].map(([, v]) => fromUtf8(v))).toEqual(["1"]);
    expect(b.pendingWrites).toBe(2);
    await b.close();
  });

  it("refuses a second opener of the same directory (LevelDB lock)", async () => {
    const dir = tempDir();
    const b = await open(dir);
    const second = await LevelBackend.open(dir);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.error.message).toMatch(/^failed to open database .*: /);
    await b.close();
  });

  it("a versioned multistore over it reopens at its last flushed commit, with history and pruning intact", async () => {
    const dir = tempDir();
    const pruning = pruningOptions("custom", 2, 10);
    if (!pruning.ok) throw new Error("pruning");
    const b = await open(dir);
    const s = new VersionedMultiStore({ storeNames: ["bank", "gov"], pruning: pruning.value, backend: b });
    const hashes = new Map<number, string>();
    for (let h = 1; h <= 25; h++) {
      s.getKVStore("bank").set(utf8(`k${h % 4}`), utf8(`v${h}`));
      if (h % 3 === 0) s.getKVStore("gov").set(utf8("n"), utf8(String(h)));
      hashes.set(h, toHex(s.commit().appHash));
      await b.flush();
    }
    s.getKVStore("bank").set(utf8("lost"), utf8("x"));
    s.commit(); // version 26, never flushed
    await b.close();

    const b2 = await open(dir);
    const r = new VersionedMultiStore({ storeNames: ["bank", "gov"], pruning: pruning.value, backend: b2 });
    expect(r.loadLatestVersion().ok).toBe(true);
    expect(r.latestVersion()).toBe(25);
    expect(r.earliestVersion()).toBe(18);
    expect(toHex(r.lastCommitId().appHash)).toBe(hashes.get(25));
    for (let h = 18; h <= 25; h++) {
      const a = r.appHashAt(h);
      expect(a.ok && toHex(a.value)).toBe(hashes.get(h));
    }
    const v20 = r.readAt(20);
    expect(v20.ok && fromUtf8(v20.value.getKVStore("bank").get(utf8("k0"))!)).toBe("v20");
    expect(r.readAt(17).ok).toBe(false);
    await b2.close();
  });

  it("never persists part of a flush when the writer is killed with SIGKILL", async () => {
    const dir = tempDir();
    const module = fileURLToPath(new URL("./level-backend.ts", import.meta.url));
    // Each flush writes 200 keys of generation g, all with value g; the writer runs until killed.
    const script = `
      const { LevelBackend } = await import(${JSON.stringify(module)});
      const r = await LevelBackend.open(${JSON.stringify(dir)}, { sync: false, createIfMissing: true });
      const b = r.value;
      const enc = new TextEncoder();
      for (let g = 1; ; g++) {
        const batch = [];
        for (let i = 0; i < 200; i++) batch.push({ key: enc.encode("k" + String(i).padStart(3, "0")), value: enc.encode(String(g)) });
        b.write(batch);
        await b.flush();
        if (g === 3) process.stdout.write("ready\\n");
      }`;
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
      await new Promise((r) => setTimeout(r, 20 + round * 40));
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const b = await open(dir);
      const values = new Set(entries(b).map(([, v]) => v));
      expect(entries(b)).toHaveLength(200);
      expect(values.size).toBe(1);
      await b.close();
    }
  }, 30_000);
});
