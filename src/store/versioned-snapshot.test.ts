import { describe, expect, it } from "vitest";
import { toHex, utf8 } from "../core/bytes.js";
import { PRUNE_EVERYTHING } from "./pruning.js";
import { VersionedMultiStore } from "./versioned.js";

/**
 * A multistore's plain-data snapshot: restored (also from a structuredClone), it holds the same commits, the same
 * uncommitted writes and pending store moves, and goes on exactly as the original; the two never see each other's
 * writes.
 */
const k = (s: string) => utf8(s);
const put = (s: VersionedMultiStore, store: string, key: string, value: string) =>
  s.getKVStore(store).set(k(key), k(value));
const facts = (s: VersionedMultiStore) => ({
  key: s.executionKey(),
  latest: s.latestVersion(),
  earliest: s.earliestVersion(),
  appHash: toHex(s.lastCommitId().appHash),
  working: toHex(s.workingAppHash()),
  stores: s.storeNames(),
});

describe("VersionedMultiStore snapshots", () => {
  it("restore commits, uncommitted writes and pending store moves, independent of the original", () => {
    const s = new VersionedMultiStore({ storeNames: ["a", "b"], pruning: PRUNE_EVERYTHING });
    for (let v = 1; v <= 25; v++) {
      put(s, v % 2 === 0 ? "a" : "b", `k${v % 4}`, `v${v}`);
      s.commit();
    }
    // A binary that renames store b to c: the move is pending until the next commit.
    const moved = s.reopen(["a", "c"]);
    expect(
      moved.loadLatestVersionAndUpgrade({ added: [], renamed: [{ oldKey: "b", newKey: "c" }], deleted: [] }).ok,
    ).toBe(true);
    put(moved, "a", "pending", "write");
    const snap = moved.snapshot();
    const restored = VersionedMultiStore.fromSnapshot(snap);
    const cloned = VersionedMultiStore.fromSnapshot(structuredClone(snap));
    expect(facts(restored)).toEqual(facts(moved));
    expect(facts(cloned)).toEqual(facts(moved));
    expect(restored.isWorkingClean()).toBe(false);

    // A halted block drops its writes but keeps the pending moves; then the same blocks give the same stores, and a
    // write on one side is not seen on the other.
    for (const st of [moved, restored, cloned]) {
      put(st, "c", "halted", "block");
      st.discardWorking();
    }
    expect(facts(restored)).toEqual(facts(moved));
    expect(facts(cloned)).toEqual(facts(moved));
    for (const st of [moved, restored, cloned]) st.commit();
    put(restored, "a", "only", "restored");
    expect(moved.getKVStore("a").get(k("only"))).toBeUndefined();
    restored.discardWorking();
    for (const st of [moved, restored, cloned]) {
      put(st, "c", "x", "1");
      st.commit();
    }
    expect(facts(restored)).toEqual(facts(moved));
    expect(facts(cloned)).toEqual(facts(moved));
  });
});
