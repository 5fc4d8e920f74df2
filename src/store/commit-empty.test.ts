import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHex, utf8 } from "../core/bytes.js";
import { PRUNE_DEFAULT, PRUNE_EVERYTHING, PRUNE_NOTHING, pruningOptions } from "./pruning.js";
import { VersionedMultiStore } from "./versioned.js";

const custom = pruningOptions("custom", 20, 10);
if (!custom.ok) throw new Error("custom pruning options rejected");
const strategies = [PRUNE_NOTHING, PRUNE_EVERYTHING, PRUNE_DEFAULT, custom.value];

describe("workingAppHash", () => {
  it("equals the hash the next commit produces, including writes that restore the committed value", () => {
    const ms = new VersionedMultiStore({ storeNames: ["a", "b"], pruning: PRUNE_NOTHING });
    ms.getKVStore("a").set(utf8("k"), utf8("1"));
    const w1 = toHex(ms.workingAppHash());
    expect(toHex(ms.commit().appHash)).toBe(w1);
    ms.getKVStore("a").set(utf8("k"), utf8("2"));
    const w2 = toHex(ms.workingAppHash());
    expect(w2).not.toBe(w1);
    ms.getKVStore("a").set(utf8("k"), utf8("1"));
    expect(toHex(ms.workingAppHash())).toBe(w1);
    expect(toHex(ms.commit().appHash)).toBe(w1);
  });
});

describe("commitEmpty", () => {
  it("is equivalent to `count` clean commits: versions, app hashes, retained window and historical reads", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...strategies),
        fc.array(
          fc.record({
            write: fc.boolean(),
            value: fc.integer({ min: 0, max: 3 }),
            idle: fc.integer({ min: 0, max: 40 }),
          }),
          {
            minLength: 1,
            maxLength: 12,
          },
        ),
        (pruning, plan) => {
          const slow = new VersionedMultiStore({ storeNames: ["s"], pruning });
          const fast = new VersionedMultiStore({ storeNames: ["s"], pruning });
          for (const ms of [slow, fast]) {
            ms.getKVStore("s").set(utf8("init"), utf8("0"));
            ms.commit();
          }
          for (const step of plan) {
            for (const ms of [slow, fast]) {
              if (step.write) ms.getKVStore("s").set(utf8("k"), utf8(String(step.value)));
              ms.commit();
            }
            for (let i = 0; i < step.idle; i++) slow.commit();
            fast.commitEmpty(step.idle);
          }
          expect(fast.latestVersion()).toBe(slow.latestVersion());
          expect(fast.earliestVersion()).toBe(slow.earliestVersion());
          expect(toHex(fast.lastCommitId().appHash)).toBe(toHex(slow.lastCommitId().appHash));
          for (let v = slow.earliestVersion(); v <= slow.latestVersion(); v++) {
            const a = slow.readAt(v);
            const b = fast.readAt(v);
            expect(a.ok && b.ok).toBe(true);
            if (a.ok && b.ok)
              expect(b.value.getKVStore("s").get(utf8("k"))).toEqual(a.value.getKVStore("s").get(utf8("k")));
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("refuses to run over uncommitted writes", () => {
    const ms = new VersionedMultiStore({ storeNames: ["s"], pruning: PRUNE_NOTHING });
    ms.getKVStore("s").set(utf8("a"), utf8("1"));
    ms.commit();
    ms.getKVStore("s").set(utf8("a"), utf8("2"));
    expect(ms.isWorkingClean()).toBe(false);
    expect(() => ms.commitEmpty(3)).toThrow(/not clean/);
  });
});
