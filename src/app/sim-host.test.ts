import { describe, expect, it } from "vitest";
import { binary, testChain } from "../../test/kit/chain.js";
import type { Action, Step } from "../chain/actions.js";
import { govAuthority } from "../core/address.js";
import { durationMs } from "../core/brand.js";
import { utf8 } from "../core/bytes.js";
import { genesisMarkerKey } from "./markers.js";
import type { NodeConfig, SidecarConfig } from "./types.js";

/** Starting a binary over a node's state (docs/scenario-format.md §1 "Starting a node"): upgrade-info.json and store upgrades. */
const PLAN = 20;
const INFO = "data/upgrade-info.json";
const sidecar: { sidecar: SidecarConfig } = {
  sidecar: { enabled: true, delayMs: durationMs(60_000), binaries: new Map([["v2", "v2"]]) },
};
const noSidecar: { sidecar: SidecarConfig } = {
  sidecar: { enabled: false, delayMs: durationMs(0), binaries: new Map() },
};
const V1 = binary("v1", {}, { bar: 1, qux: 1 });
const V2 = binary(
  "v2",
  {
    v2: {
      handler: "migrate",
      storeUpgrades: { added: ["foo"], renamed: [{ oldKey: "bar", newKey: "baz" }], deleted: ["qux"] },
    },
  },
  { foo: 1, baz: 1 },
);
/** Registers the same plan but forgets its store upgrades. */
const V2_NO_STORES = binary("v2bare", { v2: { handler: "migrate" } }, { foo: 1, baz: 1 });
const schedule: Step = {
  index: 0,
  trigger: { kind: "height", height: 2 },
  action: {
    kind: "authorityExec",
    messages: [
      { kind: "softwareUpgrade", authority: govAuthority(), plan: { name: "v2", height: BigInt(PLAN), info: "" } },
    ],
  },
};
const build = (nodes: Record<string, object> = {}, extraSteps: Step[] = []) =>
  testChain({
    binaries: [V1, V2, V2_NO_STORES],
    nodes: { val1: sidecar, val2: sidecar, val3: sidecar, val4: sidecar, ...nodes },
    steps: [schedule, ...extraSteps],
  });
const swap = (node: string, bin: string, skip?: number[]): Action => ({
  kind: "swapBinary",
  node,
  binary: bin,
  ...(skip === undefined ? {} : { skipUpgradeHeights: skip }),
});

describe("SimAppHost.start", () => {
  it("applies the binary's store upgrades when upgrade-info.json names the next height", () => {
    const e = build();
    e.run({ untilHeight: PLAN + 3 });
    const c = e.committed()!;
    expect(c.stores).toEqual(["bank", "baz", "foo", "gov", "upgrade"]);
    expect(c.applied.get("v2")).toBe(PLAN);
    // New modules ran their genesis in the upgrade block, in their (new or renamed) stores.
    const view = e.nodeState("val1")!.store.readAt(PLAN);
    expect(view.ok).toBe(true);
    if (!view.ok) return;
    for (const s of ["foo", "baz"])
      expect(view.value.getKVStore(s).get(genesisMarkerKey())).toEqual(utf8(String(PLAN)));
    // Every running node reached the same result.
    for (const n of ["val1", "val2", "val3", "val4"])
      expect(e.host.lastAppHash(e.nodeState(n)!)).toBe(e.blocks.appHash(PLAN + 3));
  });

  it("does not apply store upgrades at a skip height, so the new stores fail to load", () => {
    const e = build({ val4: noSidecar });
    e.run({ untilHeight: PLAN + 3 });
    const r = e.apply(swap("val4", "v2", [PLAN]));
    expect(r).toMatchObject({ ok: true, result: { status: "halted" } });
    expect(e.halts.at(-1)).toMatchObject({
      node: "val4",
      height: PLAN,
      kind: "store-load-failed",
      message:
        "version of store baz mismatch root store's version; expected 19 got 0; new stores should be added using StoreUpgrades",
    });
  });

  it("a binary without store upgrades for the plan fails to load its new stores", () => {
    const e = build({ val4: noSidecar }, [
      {
        index: 1,
        trigger: { kind: "halt", node: "val4", haltKind: "upgrade-needed", delayMs: 1000 },
        action: swap("val4", "v2bare"),
      },
    ]);
    e.run({ untilHeight: PLAN + 3 });
    expect(e.halts.filter((h) => h.node === "val4").map((h) => h.kind)).toEqual([
      "upgrade-needed",
      "store-load-failed",
    ]);
    expect(e.nodeStatus("val4")).toMatchObject({ status: "halted", binary: "v2bare", height: PLAN - 1 });
  });

  it("does not apply store upgrades when upgrade-info.json names another height than last + 1", () => {
    const e = build({ val4: noSidecar });
    e.run({ untilHeight: PLAN + 3 });
    const state = e.host.cloneNodeState(e.nodeState("val4")!);
    expect(state.store.latestVersion()).toBe(PLAN - 1);
    state.fs.writeFile(`${state.home}/${INFO}`, JSON.stringify({ name: "v2", height: PLAN + 1, info: "" }), 0o600);
    const cfg = { name: "val4", upgradeInfoWritable: true } as NodeConfig;
    const res = e.host.start(state, cfg, "v2", []);
    expect(res).toMatchObject({ ok: false, halt: { kind: "store-load-failed" } });
    // The same state with the right height loads.
    const fixed = e.host.cloneNodeState(e.nodeState("val4")!);
    expect(e.host.start(fixed, cfg, "v2", []).ok).toBe(true);
    expect(fixed.store.storeNames()).toEqual(["bank", "baz", "foo", "gov", "upgrade"]);
  });

  it("an unreadable upgrade-info.json fails the start", () => {
    const e = build({ val4: noSidecar });
    e.run({ untilHeight: PLAN + 3 });
    const state = e.nodeState("val4")!;
    state.fs.writeFile(`${state.home}/${INFO}`, "{not json", 0o600);
    expect(e.host.readUpgradeInfo(state).kind).toBe("invalid");
    e.apply(swap("val4", "v2"));
    expect(e.halts.at(-1)).toMatchObject({ node: "val4", kind: "store-load-failed" });
    expect(e.halts.at(-1)!.message).toMatch(/^failed to read upgrade info from disk /);
  });

  it("the sidecar does nothing when upgrade-info.json is unreadable", () => {
    const e = testChain({
      binaries: [V1, V2],
      engine: { keepTrace: true },
      nodes: { val1: sidecar, val2: sidecar, val3: sidecar, val4: sidecar },
      steps: [schedule],
    });
    e.run({ untilHeight: PLAN - 1 });
    e.run({ untilTimeMs: e.nowMs + 30_000 });
    expect(e.nodeStatus("val4")?.status).toBe("halted");
    const state = e.nodeState("val4")!;
    state.fs.writeFile(`${state.home}/${INFO}`, "{not json", 0o600);
    e.run({ untilHeight: PLAN + 3 });
    const lines = e.traceLines().map((l) => JSON.parse(l) as Record<string, unknown>);
    const val4 = lines.filter((l) => l.t === "sidecar" && l.node === "val4");
    expect(val4).toHaveLength(1);
    expect(val4[0]).toMatchObject({ action: "none" });
    expect(val4[0]!.reason).toBe((e.host.readUpgradeInfo(state) as { error: string }).error);
    expect(e.nodeStatus("val4")).toMatchObject({ status: "halted", binary: "v1" });
  });

  it("reads a valid upgrade-info.json as written by the halting node", () => {
    const e = build({ val4: noSidecar });
    e.run({ untilHeight: PLAN + 3 });
    const state = e.nodeState("val4")!;
    expect(e.host.readUpgradeInfo(state)).toEqual({ kind: "ok", name: "v2", height: PLAN, info: "" });
    const raw = state.fs.readFile(`${state.home}/${INFO}`);
    expect(raw.ok && JSON.parse(raw.value)).toEqual({ name: "v2", time: "0001-01-01T00:00:00Z", height: PLAN });
  });
});
