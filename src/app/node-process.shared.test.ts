import { describe, expect, it } from "vitest";
import { binary, testChain } from "../../test/kit/chain.js";
import type { Step } from "../chain/actions.js";
import { addressOfName, DEFAULT_BECH32_PREFIX, govAuthority } from "../core/address.js";
import { defaultParams } from "../gov/params.js";
import { DEFAULT_GOV_CONFIG } from "../gov/types.js";
import { PRUNE_NOTHING } from "../store/pruning.js";
import { type AppHooks, NO_HOOKS } from "./hooks.js";
import type { ChainGenesis, NodeState } from "./node-process.js";
import { SimNodeProcess } from "./node-process.js";
import { SimAppHost } from "./sim-host.js";
import type { NodeConfig, NodeProcess, SimTx } from "./types.js";

/**
 * Execution sharing at the process level: a process that adopts another's committed block ends exactly where its
 * own execute + commit would have (store history, protocol version, keeper flags), and nothing else is adopted.
 */
const PLAN = 20;
const CFG = { name: "probe", upgradeInfoWritable: true } as NodeConfig;
const V1 = binary("v1");
const V2 = binary("v2", { v2: { handler: "migrate" } }, { gov: 2 }, { gov: [1] });
const scheduleTx = (name: string, height: number): SimTx => ({
  kind: "upgrade",
  signer: govAuthority(),
  messages: [{ kind: "softwareUpgrade", authority: govAuthority(), plan: { name, height: BigInt(height), info: "" } }],
});
const scheduleStep: Step = {
  index: 0,
  trigger: { kind: "height", height: 2 },
  action: {
    kind: "authorityExec",
    messages: [
      { kind: "softwareUpgrade", authority: govAuthority(), plan: { name: "v2", height: BigInt(PLAN), info: "" } },
    ],
  },
};

/** A chain just before the plan height, and fresh processes of `bin` over copies of val1's state. */
function beforePlan() {
  const e = testChain({ binaries: [V1, V2], steps: [scheduleStep] });
  e.run({ untilHeight: PLAN - 1 });
  const start = (bin: string): SimNodeProcess => {
    const state = e.host.cloneNodeState(e.nodeState("val1")!);
    const started = e.host.start(state, CFG, bin, []);
    if (!started.ok) throw new Error(started.halt.message);
    if (!(started.process instanceof SimNodeProcess)) throw new Error("not a SimNodeProcess");
    return started.process;
  };
  return { e, start, timeMs: e.lastBlockTimeMs + 6000 };
}

const flags = (p: SimNodeProcess) => ({
  key: p.executionKey(),
  height: p.lastHeight(),
  appHash: p.lastAppHash(),
  protocolVersion: p.protocolVersion,
  downgradeVerified: p.keeper.downgradeVerified(),
  serverInfoUpgradeHeight: p.keeper.serverInfoUpgradeHeight,
});

describe("SimNodeProcess.adoptCommitted", () => {
  it("leaves the adopter exactly where its own execute + commit would have", () => {
    const { start, timeMs } = beforePlan();
    const [a, b, c] = [start("v2"), start("v2"), start("v2")];
    expect(b.executionKey()).toBe(a.executionKey());
    // The upgrade applies (protocol version 1, downgrade check done) and a tx schedules the next plan.
    const txs = [scheduleTx("v3", PLAN + 50)];
    const out = a.execute(PLAN, timeMs, txs);
    expect(out).toMatchObject({ ok: true, applied: "v2", txResults: [{ ok: true }] });
    expect(a.lastExecutionShareable()).toBe(true);
    a.commit();
    b.adoptCommitted(a);
    expect(c.execute(PLAN, timeMs, txs)).toEqual(out);
    c.commit();
    expect(flags(b)).toEqual(flags(c));
    expect(flags(b)).toMatchObject({
      height: PLAN,
      protocolVersion: 1n,
      downgradeVerified: true,
      serverInfoUpgradeHeight: BigInt(PLAN + 50),
    });
    expect(flags(b).key).toBeDefined();
    // The adopted store is independent of the source's, and both go on like the self-executed one.
    expect(a.execute(PLAN + 1, timeMs + 6000, [scheduleTx("v4", PLAN + 60)]).ok).toBe(true);
    a.commit();
    const next = c.execute(PLAN + 1, timeMs + 6000, []);
    c.commit();
    expect(b.execute(PLAN + 1, timeMs + 6000, [])).toEqual(next);
    b.commit();
    expect(flags(b)).toEqual(flags(c));
    expect(a.lastAppHash()).not.toBe(b.lastAppHash());
  });

  it("throws unless the source committed this process's next block from the same execution key", () => {
    const { e, start, timeMs } = beforePlan();
    const adopter = start("v2");
    // Executed but aborted: nothing committed to adopt.
    const aborted = start("v2");
    expect(aborted.execute(PLAN, timeMs, []).ok).toBe(true);
    aborted.abort();
    expect(() => adopter.adoptCommitted(aborted)).toThrow(/did not commit/);
    // Committed the block, but from another key (a skip height at the plan).
    const started = e.host.start(e.host.cloneNodeState(e.nodeState("val1")!), CFG, "v2", [PLAN]);
    if (!started.ok) throw new Error(started.halt.message);
    const skipper = started.process;
    expect(skipper.executionKey()).not.toBe(adopter.executionKey());
    expect(skipper.execute(PLAN, timeMs, [])).toMatchObject({ ok: true, skipped: "v2" });
    skipper.commit();
    expect(() => adopter.adoptCommitted(skipper)).toThrow(/did not commit/);
    // The right source, but the adopter is past the height before.
    const a = start("v2");
    expect(a.execute(PLAN, timeMs, []).ok).toBe(true);
    a.commit();
    adopter.adoptCommitted(a);
    expect(() => adopter.adoptCommitted(a)).toThrow(/did not commit/);
    const foreign = { ...a } as unknown as NodeProcess;
    expect(() => start("v2").adoptCommitted(foreign)).toThrow(/foreign/);
  });

  it("keeps the adopter's own gauge and protocol version unless the block set them, as its own execution would", () => {
    const { start, timeMs } = beforePlan();
    const run = (adopt: boolean, txs: SimTx[]) => {
      const source = start("v2");
      const p = start("v2");
      p.keeper.serverInfoUpgradeHeight = 7n;
      const self = start("v2");
      self.keeper.serverInfoUpgradeHeight = 7n;
      // Block PLAN applies the upgrade (sets the protocol version); block PLAN + 1 carries `txs`.
      for (const [h, t, block] of [
        [PLAN, timeMs, []],
        [PLAN + 1, timeMs + 6000, txs],
      ] as const) {
        expect(source.execute(h, t, block).ok).toBe(true);
        source.commit();
        if (adopt) p.adoptCommitted(source);
        else {
          expect(p.execute(h, t, block).ok).toBe(true);
          p.commit();
        }
        expect(self.execute(h, t, block).ok).toBe(true);
        self.commit();
      }
      return [flags(p), flags(self)];
    };
    const [adopted, own] = run(true, []);
    expect(adopted).toEqual(own);
    expect(adopted).toMatchObject({ serverInfoUpgradeHeight: 7n, protocolVersion: 1n });
    const [adoptedSet, ownSet] = run(true, [scheduleTx("v3", PLAN + 50)]);
    expect(adoptedSet).toEqual(ownSet);
    expect(adoptedSet).toMatchObject({ serverInfoUpgradeHeight: BigInt(PLAN + 50) });
    expect(run(false, [])[0]).toEqual(own);
  });
});

describe("SimNodeProcess.executionKey", () => {
  it("differs by binary, skip heights and the downgrade-verified flag, and is undefined with pending writes", () => {
    const { e, start, timeMs } = beforePlan();
    const a = start("v1");
    expect(start("v1").executionKey()).toBe(a.executionKey());
    expect(start("v2").executionKey()).not.toBe(a.executionKey());
    const state = e.host.cloneNodeState(e.nodeState("val1")!);
    const skipping = e.host.start(state, CFG, "v1", [PLAN]);
    expect(skipping.ok && skipping.process.executionKey()).not.toBe(a.executionKey());
    const verified = start("v1");
    verified.keeper.setDowngradeVerified(true);
    expect(verified.executionKey()).not.toBe(a.executionKey());
    // The upgrade-height gauge is written by blocks, never read: not part of the key (see adoptCommitted).
    const gauged = start("v1");
    gauged.keeper.serverInfoUpgradeHeight = 99n;
    expect(gauged.executionKey()).toBe(a.executionKey());
    const pending = start("v2");
    expect(pending.execute(PLAN, timeMs, []).ok).toBe(true);
    expect(pending.executionKey()).toBeUndefined();
  });
});

describe("SimNodeProcess.lastExecutionShareable", () => {
  const genesis: ChainGenesis = {
    chainId: "chain-sim-1",
    validators: [{ name: "val1", power: 100 }],
    balances: [{ address: addressOfName("val1"), coins: [{ denom: "stake", amount: 1_000_000_000n }] }],
    govParams: defaultParams(),
    govConfig: DEFAULT_GOV_CONFIG,
    bech32Prefix: DEFAULT_BECH32_PREFIX,
  };
  /** A preBlock hook that swallows the upgrade-needed halt (the node writes upgrade-info.json and carries on). */
  const carryOn: AppHooks = {
    ...NO_HOOKS,
    preBlock: (r) => (!r.ok && r.halt.kind === "upgrade-needed" ? { ok: true, consensusParamsChanged: false } : r),
  };
  const run = (hooks: AppHooks) => {
    const host = new SimAppHost(genesis, new Map([["v1", V1]]), "v1", PRUNE_NOTHING, hooks);
    const state: NodeState = host.createNodeState(CFG);
    const started = host.start(state, CFG, "v1", []);
    if (!started.ok) throw new Error(started.halt.message);
    const p = started.process;
    const shareable: boolean[] = [];
    for (let h = 1; h <= 5; h++) {
      const out = p.execute(h, h * 6000, h === 2 ? [scheduleTx("v2", 5)] : []);
      if (!out.ok) return { shareable, halted: h, info: host.readUpgradeInfo(state) };
      shareable.push(p.lastExecutionShareable());
      p.commit();
    }
    return { shareable, halted: undefined, info: host.readUpgradeInfo(state) };
  };

  it("is false for a block that wrote upgrade-info.json and carried on (a swallowed halt), true otherwise", () => {
    const faulty = run(carryOn);
    expect(faulty.shareable).toEqual([true, true, true, true, false]);
    expect(faulty.info).toEqual({ kind: "ok", name: "v2", height: 5, info: "" });
    const correct = run(NO_HOOKS);
    expect(correct).toEqual({ shareable: [true, true, true, true], halted: 5, info: faulty.info });
  });
});
