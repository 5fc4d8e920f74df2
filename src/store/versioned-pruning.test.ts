import { describe, expect, it } from "vitest";
import { utf8 } from "../core/bytes.js";
import { MemBackend } from "./mem-backend.js";
import { PRUNE_DEFAULT, PRUNE_EVERYTHING, PRUNE_NOTHING, type PruningOptions } from "./pruning.js";
import { VersionedMultiStore } from "./versioned.js";

const readable = (ms: VersionedMultiStore): number[] => {
  const out: number[] = [];
  for (let v = 0; v <= ms.latestVersion() + 1; v++) if (ms.readAt(v).ok) out.push(v);
  return out;
};
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** Commits `n` blocks, each overwriting one hot key and adding one fresh key. */
function run(pruning: PruningOptions, n: number, backend = new MemBackend()) {
  const ms = new VersionedMultiStore({ storeNames: ["s"], pruning, backend });
  for (let h = 1; h <= n; h++) {
    ms.getKVStore("s").set(utf8("hot"), utf8(String(h)));
    ms.getKVStore("s").set(utf8(`k${String(h).padStart(4, "0")}`), utf8(String(h)));
    ms.commit();
  }
  return ms;
}

describe("pruning windows (docs/node-api.md §1.3)", () => {
  it("everything: readable 1-9, 8-10, 8-19, 18-20, 18-25 as the chain grows", () => {
    const ms = new VersionedMultiStore({ storeNames: ["s"], pruning: PRUNE_EVERYTHING });
    const windows = new Map<number, number[]>();
    for (let h = 1; h <= 25; h++) {
      ms.getKVStore("s").set(utf8("hot"), utf8(String(h)));
      ms.commit();
      windows.set(h, readable(ms));
    }
    expect(windows.get(9)).toEqual(range(1, 9));
    expect(windows.get(10)).toEqual(range(8, 10));
    expect(windows.get(19)).toEqual(range(8, 19));
    expect(windows.get(20)).toEqual(range(18, 20));
    expect(windows.get(25)).toEqual(range(18, 25));
    for (const v of range(18, 25)) {
      const r = ms.readAt(v);
      expect(r.ok && r.value.getKVStore("s").get(utf8("hot"))).toEqual(utf8(String(v)));
    }
  });

  it("custom 100/10: 1-105 at 105, 10-110 at 110", () => {
    const ms = run({ strategy: "custom", keepRecent: 100, interval: 10 }, 105);
    expect([ms.earliestVersion(), ms.latestVersion()]).toEqual([1, 105]);
    expect(readable(ms)).toEqual(range(1, 105));
    for (let i = 0; i < 5; i++) ms.commit();
    expect(readable(ms)).toEqual(range(10, 110));
    const r = ms.readAt(10);
    expect(r.ok && r.value.getKVStore("s").get(utf8("k0001"))).toEqual(utf8("1"));
  });

  it("default keeps 362880 recent versions: 1-362889, then 10-362890", () => {
    const ms = run(PRUNE_DEFAULT, 1);
    for (let h = 2; h <= 362889; h++) ms.commit();
    expect([ms.earliestVersion(), ms.latestVersion()]).toEqual([1, 362889]);
    expect(ms.readAt(1).ok).toBe(true);
    ms.commit();
    expect([ms.earliestVersion(), ms.latestVersion()]).toEqual([10, 362890]);
    expect(ms.readAt(9).ok).toBe(false);
    const r = ms.readAt(10);
    expect(r.ok && r.value.getKVStore("s").get(utf8("hot"))).toEqual(utf8("1"));
  });

  it("nothing keeps every version", () => {
    const ms = run(PRUNE_NOTHING, 60);
    expect(readable(ms)).toEqual(range(1, 60));
  });

  it("pruning deletes superseded history: storage stays bounded by the retained window", () => {
    const pruned = new MemBackend();
    const kept = new MemBackend();
    run(PRUNE_EVERYTHING, 600, pruned);
    run(PRUNE_NOTHING, 600, kept);
    // 600 fresh keys stay (latest index + one history entry each); the hot key keeps only the window
    expect(pruned.size()).toBeLessThan(2 * 600 + 100);
    expect(kept.size()).toBeGreaterThan(3 * 600);
  });

  it("a deleted key disappears from storage once its deletion is older than the window", () => {
    const backend = new MemBackend();
    const ms = new VersionedMultiStore({ storeNames: ["s"], pruning: PRUNE_EVERYTHING, backend });
    ms.commit();
    const empty = backend.size();
    ms.getKVStore("s").set(utf8("gone"), utf8("1"));
    ms.commit();
    ms.getKVStore("s").delete(utf8("gone"));
    ms.commit();
    for (let i = 0; i < 20; i++) ms.commit();
    expect(backend.size()).toBe(empty);
  });
});
