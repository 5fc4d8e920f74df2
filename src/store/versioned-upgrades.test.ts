import { describe, expect, it } from "vitest";
import { fromUtf8, utf8 } from "../core/bytes.js";
import { errorText } from "../core/errors.js";
import type { KVStore } from "../core/kv.js";
import { PRUNE_EVERYTHING, PRUNE_NOTHING } from "./pruning.js";
import type { MultiStore, StoreUpgrades } from "./types.js";
import { VersionedMultiStore } from "./versioned.js";

const up = (u: Partial<StoreUpgrades>): StoreUpgrades => ({ added: [], renamed: [], deleted: [], ...u });
const dump = (kv: KVStore) => [...kv.iterator(undefined, undefined)].map(([k, v]) => `${fromUtf8(k)}=${fromUtf8(v)}`);
const at = (ms: VersionedMultiStore, v: number): MultiStore => {
  const r = ms.readAt(v);
  if (!r.ok) throw new Error(errorText(r.error));
  return r.value;
};
const errText = (r: { ok: boolean; error?: unknown }) =>
  r.ok ? "ok" : errorText((r as { error: Parameters<typeof errorText>[0] }).error);

/** Stores a and b with one key each, committed at version 1. */
function seeded(pruning = PRUNE_NOTHING) {
  const ms = new VersionedMultiStore({ storeNames: ["a", "b"], pruning });
  ms.getKVStore("a").set(utf8("ka"), utf8("1"));
  ms.getKVStore("b").set(utf8("kb"), utf8("2"));
  ms.commit();
  return ms;
}

describe("loadLatestVersionAndUpgrade", () => {
  it("added: a mounted new store starts empty and enters the next commit (changing the hash)", () => {
    const ms = seeded();
    const before = ms.lastCommitId().appHash;
    ms.mountStore("c");
    expect(ms.hasStore("c")).toBe(false);
    expect(errText(ms.loadLatestVersionAndUpgrade(up({ added: ["c"] })))).toBe("ok");
    expect(dump(ms.getKVStore("c"))).toEqual([]);
    const id = ms.commit();
    expect(id.appHash).not.toEqual(before);
    expect(at(ms, 2).storeNames()).toEqual(["a", "b", "c"]);
    expect(dump(at(ms, 2).getKVStore("a"))).toEqual(["ka=1"]);
  });

  it("a newly mounted store without an upgrade fails to load with the reference text", () => {
    const ms = seeded();
    ms.commit();
    ms.mountStore("c");
    expect(errText(ms.loadLatestVersion())).toBe(
      "version of store c mismatch root store's version; expected 2 got 0; new stores should be added using StoreUpgrades",
    );
  });

  it("adding a store that already exists fails with the IAVL initial-version text", () => {
    const ms = seeded();
    ms.commit();
    ms.commit();
    expect(errText(ms.loadLatestVersionAndUpgrade(up({ added: ["b"] })))).toBe(
      "failed to load store: initial version set to 4, but found earlier version 1",
    );
    // the earliest version counts: after pruning, and for a store added later
    const p = seeded(PRUNE_EVERYTHING);
    p.mountStore("c");
    expect(p.loadLatestVersionAndUpgrade(up({ added: ["c"] })).ok).toBe(true);
    p.commit(); // c exists from version 2
    for (let i = 0; i < 3; i++) p.commit();
    expect(errText(p.loadLatestVersionAndUpgrade(up({ added: ["c"] })))).toBe(
      "failed to load store: initial version set to 6, but found earlier version 2",
    );
    for (let i = 0; i < 20; i++) p.commit();
    expect(errText(p.loadLatestVersionAndUpgrade(up({ added: ["c", "a"] })))).toBe(
      "failed to load store: initial version set to 26, but found earlier version 18",
    );
  });

  it("renamed: the data moves under the new name and the old name leaves at the next commit", () => {
    const ms = seeded();
    ms.mountStore("b2");
    expect(errText(ms.loadLatestVersionAndUpgrade(up({ renamed: [{ oldKey: "b", newKey: "b2" }] })))).toBe("ok");
    expect(dump(ms.getKVStore("b2"))).toEqual(["kb=2"]);
    expect(ms.hasStore("b")).toBe(false);
    ms.commit();
    expect(at(ms, 2).storeNames()).toEqual(["a", "b2"]);
    expect(dump(at(ms, 2).getKVStore("b2"))).toEqual(["kb=2"]);
    expect(dump(at(ms, 1).getKVStore("b"))).toEqual(["kb=2"]); // history keeps the old store
  });

  it("renaming onto an existing store fails; renaming from a missing store gives an empty store", () => {
    const ms = seeded();
    expect(errText(ms.loadLatestVersionAndUpgrade(up({ renamed: [{ oldKey: "a", newKey: "b" }] })))).toBe(
      "failed to load store: initial version set to 2, but found earlier version 1",
    );
    ms.mountStore("n");
    expect(errText(ms.loadLatestVersionAndUpgrade(up({ renamed: [{ oldKey: "ghost", newKey: "n" }] })))).toBe("ok");
    expect(dump(ms.getKVStore("n"))).toEqual([]);
  });

  it("deleted: the store leaves with its data; history keeps it; re-adding starts empty", () => {
    const ms = seeded();
    const h1 = ms.lastCommitId().appHash;
    expect(errText(ms.loadLatestVersionAndUpgrade(up({ deleted: ["b"] })))).toBe("ok");
    expect(ms.hasStore("b")).toBe(false);
    const id = ms.commit();
    expect(id.appHash).not.toEqual(h1);
    expect(at(ms, 2).storeNames()).toEqual(["a"]);
    expect(dump(at(ms, 1).getKVStore("b"))).toEqual(["kb=2"]);
    // the binary still mounts b: re-adding it later gives an empty store, not the old data
    expect(errText(ms.loadLatestVersionAndUpgrade(up({ added: ["b"] })))).toBe("ok");
    expect(dump(ms.getKVStore("b"))).toEqual([]);
    ms.commit();
    expect(dump(at(ms, 3).getKVStore("b"))).toEqual([]);
  });

  it("deleting a mounted store that the last commit lacks fails; names not mounted are ignored", () => {
    const ms = seeded();
    ms.mountStore("z");
    expect(errText(ms.loadLatestVersionAndUpgrade(up({ deleted: ["z"] })))).toBe(
      "version of store z mismatch root store's version; expected 1 got 0; new stores should be added using StoreUpgrades",
    );
    const other = seeded();
    expect(errText(other.loadLatestVersionAndUpgrade(up({ added: ["x"], deleted: ["y"] })))).toBe("ok");
    expect(other.storeNames()).toEqual(["a", "b"]);
  });

  it("reports the first failing mounted store in byte order and changes nothing on error", () => {
    const ms = seeded();
    ms.getKVStore("a").set(utf8("pending"), utf8("x"));
    ms.mountStore("y");
    ms.mountStore("c");
    const r = ms.loadLatestVersionAndUpgrade(up({ deleted: ["a"] }));
    expect(errText(r)).toContain("version of store c mismatch");
    expect(ms.storeNames()).toEqual(["a", "b"]);
    expect(fromUtf8(ms.getKVStore("a").get(utf8("pending"))!)).toBe("x");
  });

  it("a load drops uncommitted writes; discardWorking keeps the upgrade's renames", () => {
    const ms = seeded();
    ms.getKVStore("a").set(utf8("pending"), utf8("x"));
    ms.mountStore("b2");
    ms.loadLatestVersionAndUpgrade(up({ renamed: [{ oldKey: "b", newKey: "b2" }] }));
    expect(ms.getKVStore("a").get(utf8("pending"))).toBeUndefined();
    ms.getKVStore("b2").set(utf8("extra"), utf8("y"));
    ms.discardWorking();
    expect(dump(ms.getKVStore("b2"))).toEqual(["kb=2"]);
    ms.commit();
    ms.discardWorking();
    expect(dump(ms.getKVStore("b2"))).toEqual(["kb=2"]);
  });

  it("reopen models a binary switch: unmounted stores leave the next commit, new mounts need an upgrade", () => {
    const ms = seeded();
    ms.getKVStore("a").set(utf8("uncommitted"), utf8("x"));
    const next = ms.reopen(["a", "c"]);
    expect(next.latestVersion()).toBe(1);
    expect(next.lastCommitId()).toEqual(ms.lastCommitId());
    expect(errText(next.loadLatestVersion())).toContain("version of store c mismatch");
    expect(errText(next.loadLatestVersionAndUpgrade(up({ added: ["c"] })))).toBe("ok");
    expect(next.getKVStore("a").get(utf8("uncommitted"))).toBeUndefined();
    next.commit();
    expect(at(next, 2).storeNames()).toEqual(["a", "c"]);
  });
});
