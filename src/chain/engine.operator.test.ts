import { describe, expect, it } from "vitest";
import { at, binary, schedule, steps, swap, testChain } from "../../test/kit/chain.js";
import type { CosmovisorOperator, ManualOperator, OperatorConfig } from "../app/operator.js";
import { govAuthority } from "../core/address.js";
import { ChainEngine } from "./engine.js";
import { OperatorDraws } from "./operator-draws.js";
import { planRecovery } from "./operator-plan.js";

/**
 * The operator model in the engine (operator.ts): what the chain and each node do when operators act, at the halt
 * and ahead of it. Plan "v2" is scheduled at height 2 for PLAN; blocks are 6 s, so the halt is expected at
 * PLAN × 6 s after genesis.
 */

const PLAN = 400;
const MIN = 60_000;
const GENESIS = Date.UTC(2026, 0, 1);
const BINARIES = [binary("v1"), binary("v2", { v2: { handler: "noop" } })];
const STORE_BINARIES = [
  binary("v1"),
  binary("v2", { v2: { handler: "noop", storeUpgrades: { added: ["foo"], renamed: [], deleted: [] } } }, { foo: 1 }),
];

const visor = (o: Partial<CosmovisorOperator> = {}): CosmovisorOperator => ({
  pollIntervalMs: 300,
  restartAfterUpgrade: true,
  shutdownGraceMs: 0,
  restartDelayMs: 0,
  unsafeSkipBackup: true,
  backup: { kind: "fixed", ms: 0 },
  preUpgradeExitCodes: [1],
  preUpgradeDuration: { kind: "fixed", ms: 0 },
  preUpgradeMaxRetries: 0,
  onFailure: "manual",
  ...o,
});
const person = (o: Partial<ManualOperator> = {}): ManualOperator => ({
  reaction: { kind: "fixed", ms: 10 * MIN },
  absentProbability: 0,
  wrongBinaryProbability: 0,
  ...o,
});
const operator = (o: Partial<OperatorConfig>): { operator: OperatorConfig } => ({
  operator: { binaries: new Map(), ...o },
});
/** val2-val4 run cosmovisor; val1 has `val1`. */
const chain = (val1: { operator: OperatorConfig }, binaries = BINARIES) =>
  testChain({
    binaries,
    engine: { keepTrace: true },
    nodes: {
      val1,
      val2: operator({ cosmovisor: visor() }),
      val3: operator({ cosmovisor: visor() }),
      val4: operator({ cosmovisor: visor() }),
    },
    steps: steps([at(2), schedule(PLAN)]),
  });
type Line = Record<string, unknown>;
const lines = (e: ReturnType<typeof chain>): Line[] => e.traceLines().map((l) => JSON.parse(l) as Line);
const ofVal1 = (t: Line[], kind: string) => t.filter((l) => l.t === kind && l.node === "val1");
const timeOf = (l: Line | undefined): number => Date.parse(String(l?.time));
const info = (e: ReturnType<typeof chain>) => {
  const state = e.nodeState("val1");
  return state === undefined ? undefined : e.host.readUpgradeInfo(state);
};

describe("a wrong binary really runs", () => {
  it("each wrong start runs v1 again, which halts again at the plan height; the right one comes a reaction later", () => {
    const e = chain(operator({ manual: person({ wrongBinaryProbability: 1 }) }));
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 60 * MIN });
    const t = lines(e);
    const halts = ofVal1(t, "halt");
    expect(halts.map((l) => [l.height, l.kind])).toEqual(Array(4).fill([PLAN, "upgrade-needed"]));
    // Four halts a reaction apart, each wrong start a start of v1, then v2.
    for (let i = 1; i < 4; i++) expect(timeOf(halts[i]) - timeOf(halts[i - 1])).toBe(10 * MIN);
    expect(ofVal1(t, "start").map((l) => l.binary)).toEqual(["v1", "v1", "v1", "v1", "v2"]);
    expect(e.halts.filter((h) => h.node === "val1")).toHaveLength(4);
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v2" });
    expect([...e.handlerRuns]).toEqual([["v2", 1]]);
  });
});

describe("what the operator does at the halt", () => {
  it("goes on with its own recovery through the halts of its wrong binaries: no fresh start, no fresh draws", () => {
    const m = person({ wrongBinaryProbability: 1, reaction: { kind: "uniform", minMs: MIN, maxMs: 60 * MIN } });
    const e = chain(operator({ manual: m }));
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 5 * 60 * MIN });
    const halt = e.halts.find((h) => h.node === "val1");
    const plan = planRecovery(
      { manual: m, binaries: new Map() },
      { haltMs: halt!.timeMs, episode: PLAN, binary: "v2", oldBinary: "v1" },
      new OperatorDraws(1, "val1"),
      true,
    );
    const traced = ofVal1(lines(e), "operator").map((l) => [l.phase, timeOf(l)]);
    expect(traced).toEqual(plan.steps?.map((st) => [st.phase, st.atMs]));
    expect(e.halts.filter((h) => h.node === "val1")).toHaveLength(4);
  });

  it("cosmovisor does not switch again for a height it handled: a binary without the handler stays halted", () => {
    const e = chain(operator({ cosmovisor: visor(), binaries: new Map([["v2", "v1"]]) }));
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 30 * MIN });
    const none = ofVal1(lines(e), "operator").filter((l) => l.phase === "none");
    expect(none.map((l) => l.detail)).toEqual([`already switched binaries for height ${PLAN}`]);
    expect(e.halts.filter((h) => h.node === "val1").map((h) => h.height)).toEqual([PLAN, PLAN]);
    expect(e.nodeStatus("val1")).toMatchObject({ status: "halted", binary: "v1" });
  });

  it("a person switches whatever cosmovisor handled: with no cosmovisor, each halt is acted on", () => {
    const e = chain(operator({ manual: person(), binaries: new Map([["v2", "v1"]]) }));
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 25 * MIN });
    expect(e.halts.filter((h) => h.node === "val1").map((h) => h.height)).toEqual([PLAN, PLAN, PLAN]);
  });

  it("a recovery overtaken by a hand swap ends: the next plan's halt gets a recovery of its own, for that plan", () => {
    // val1's person starts wrong binaries before the right one. Before its first reaction a scenario step swaps
    // val1 to v2 by hand; the chain goes on, and plan v3 halts every node at PLAN + 100. Only a recovery for v3 can
    // bring val1 back: the rest of the v2 recovery (its wrong starts of v1, then v2) must not answer this halt.
    const v3 = { name: "v3", height: BigInt(PLAN + 100), info: "" };
    const binaries = new Map([
      ["v2", "v2"],
      ["v3", "v3"],
    ]);
    const e = testChain({
      binaries: [...BINARIES, binary("v3", { v2: { handler: "noop" }, v3: { handler: "noop" } })],
      engine: { keepTrace: true },
      nodes: {
        val1: operator({ manual: person({ wrongBinaryProbability: 1 }), binaries }),
        val2: operator({ cosmovisor: visor(), binaries }),
        val3: operator({ cosmovisor: visor(), binaries }),
        val4: operator({ cosmovisor: visor(), binaries }),
      },
      steps: steps(
        [at(2), schedule(PLAN)],
        [{ kind: "halt", node: "val1", height: PLAN, delayMs: MIN }, swap("val1", "v2")],
        [
          at(PLAN + 2),
          { kind: "authorityExec", messages: [{ kind: "softwareUpgrade", authority: govAuthority(), plan: v3 }] },
        ],
      ),
    });
    e.run({ untilTimeMs: GENESIS + (PLAN + 100) * 6000 + 3 * 60 * MIN });
    const t = lines(e);
    expect(ofVal1(t, "halt").map((l) => l.height)).toEqual([PLAN, PLAN + 100, PLAN + 100, PLAN + 100, PLAN + 100]);
    // After the hand swap, every start answers v3: three wrong starts of v2 (the binary it ran), then v3.
    expect(ofVal1(t, "start").map((l) => l.binary)).toEqual(["v1", "v2", "v2", "v2", "v2", "v3"]);
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v3" });
  });

  it("does nothing when no binary, or more than one, has the plan's handler", () => {
    const none = chain(operator({ manual: person() }), [binary("v1"), binary("v3", { v3: { handler: "noop" } })]);
    none.run({ untilTimeMs: GENESIS + PLAN * 6000 + 30 * MIN });
    expect(ofVal1(lines(none), "operator").map((l) => l.detail)).toEqual(['no binary has a handler for "v2"']);
    const two = chain(operator({ manual: person() }), [...BINARIES, binary("v2b", { v2: { handler: "noop" } })]);
    two.run({ untilTimeMs: GENESIS + PLAN * 6000 + 30 * MIN });
    expect(ofVal1(lines(two), "operator").map((l) => l.detail)).toEqual(['several binaries have a handler for "v2"']);
    expect(two.nodeStatus("val1")).toMatchObject({ status: "halted", binary: "v1" });
  });
});

const lead = (ms: number) => ({ probability: 1, lead: { kind: "fixed", ms } as const });

describe("a person who installs the new binary ahead of time", () => {
  const early = (lead: number, probability = 1) =>
    operator({ manual: person({ early: { probability, lead: { kind: "fixed", ms: lead } } }) });

  it("starts v2 `lead` before the expected halt; BINARY UPDATED BEFORE TRIGGER; goes back to v1 a reaction later", () => {
    const e = chain(early(20 * MIN));
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 30 * MIN });
    const t = lines(e);
    const expectedHaltMs = GENESIS + PLAN * 6000;
    const [restartEarly] = ofVal1(t, "operator").filter((l) => l.phase === "restart-early");
    expect(timeOf(restartEarly)).toBe(expectedHaltMs - 20 * MIN);
    const [tooEarly, atPlan] = e.halts.filter((h) => h.node === "val1");
    expect(tooEarly).toMatchObject({ kind: "binary-too-early", height: PLAN - 200 });
    expect(atPlan).toMatchObject({ kind: "upgrade-needed", height: PLAN });
    const [down] = ofVal1(t, "operator").filter((l) => l.phase === "downgrade");
    expect(timeOf(down) - tooEarly!.timeMs).toBe(10 * MIN);
    expect(ofVal1(t, "start").map((l) => l.binary)).toEqual(["v1", "v2", "v1", "v2"]);
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v2" });
    expect([...e.handlerRuns]).toEqual([["v2", 1]]);
  });

  it("acts only if its node is running when the plan is committed, and not when it already runs the plan's binary", () => {
    const m = operator({ manual: person({ early: lead(20 * MIN) }) });
    const down = testChain({
      binaries: BINARIES,
      engine: { keepTrace: true },
      nodes: { val1: m },
      steps: steps([at(1), { kind: "stop", node: "val1" }], [at(2), schedule(PLAN)]),
    });
    down.run({ untilHeight: PLAN - 1 });
    expect(ofVal1(lines(down), "operator")).toEqual([]);
    const onV2 = testChain({
      binaries: BINARIES,
      engine: { keepTrace: true },
      nodes: { val1: m },
      steps: steps(
        [at(1), { kind: "swapBinary", node: "val1", binary: "v2", skipUpgradeHeights: [] }],
        [at(2), schedule(PLAN)],
      ),
    });
    onV2.run({ untilHeight: 3 });
    expect(ofVal1(lines(onV2), "operator")).toEqual([]);
  });

  it("with probability 0 does nothing ahead of time", () => {
    const e = chain(early(20 * MIN, 0));
    e.run({ untilHeight: PLAN - 1 });
    expect(ofVal1(lines(e), "operator")).toEqual([]);
    expect(e.halts).toEqual([]);
  });

  it("a lead longer than the time left acts at once, at the plan's block", () => {
    const e = chain(early(10 * 60 * MIN));
    e.run({ untilHeight: 10 });
    const [restartEarly] = ofVal1(lines(e), "operator");
    expect(restartEarly?.phase).toBe("restart-early");
    expect(timeOf(restartEarly)).toBe(e.blocks.timeMs(2));
  });

  it("a binary that mounts the plan's new store fails its start: the store upgrade is not applied early", () => {
    const e = chain(early(20 * MIN), STORE_BINARIES);
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 30 * MIN });
    const [failed] = e.halts.filter((h) => h.node === "val1");
    expect(failed?.kind).toBe("store-load-failed");
    expect(failed?.message).toContain("new stores should be added using StoreUpgrades");
    expect(e.committed()?.stores).toContain("foo");
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v2" });
  });

  it("without a person behind cosmovisor nobody goes back: the node stays halted on the new binary", () => {
    const e = chain(
      operator({ cosmovisor: visor({ addUpgrade: { probability: 1, lead: { kind: "fixed", ms: 20 * MIN } } }) }),
    );
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 30 * MIN });
    expect(e.halts.filter((h) => h.node === "val1").map((h) => h.kind)).toEqual(["binary-too-early"]);
    expect(ofVal1(lines(e), "operator").at(-1)?.detail).toBe("no person to go back to the old binary");
    expect(e.nodeStatus("val1")).toMatchObject({ status: "halted", binary: "v2" });
    // Three quarters of the power upgraded at the plan height.
    expect(e.height).toBeGreaterThan(PLAN);
  });
});

describe("a staged cosmovisor upgrade (add-upgrade --upgrade-height)", () => {
  const staged = () =>
    chain(
      operator({
        cosmovisor: visor({
          unsafeSkipBackup: false,
          backup: { kind: "fixed", ms: 5 * MIN },
          addUpgrade: { probability: 1, lead: { kind: "fixed", ms: 20 * MIN } },
        }),
        manual: person(),
      }),
    );

  it("writes upgrade-info.json, switches at the next poll below the plan height, and is undone by the person", () => {
    const e = staged();
    const stageMs = GENESIS + PLAN * 6000 - 20 * MIN;
    e.run({ untilTimeMs: stageMs + 1 });
    expect(info(e)).toMatchObject({ kind: "ok", name: "v2", height: PLAN });
    e.run({ untilTimeMs: stageMs + 5 * MIN + 1000 });
    expect(e.nodeStatus("val1")).toMatchObject({ status: "halted", binary: "v2" });
    expect(e.halts.at(-1)).toMatchObject({ node: "val1", kind: "binary-too-early" });
    e.run({ untilTimeMs: stageMs + 16 * MIN });
    expect(info(e)).toEqual({ kind: "absent" });
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v1" });
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 + 30 * MIN });
    const t = ofVal1(lines(e), "operator").map((l) => l.phase);
    expect(t.slice(0, 6)).toEqual(["stage", "detect", "stop", "backup", "switch", "pre-upgrade"]);
    expect(t).toContain("restart-early");
    // At the plan height the fresh cosmovisor (it forgot the staged height) switches for real, after its backup.
    expect(t.slice(-6)).toEqual(["detect", "stop", "backup", "switch", "pre-upgrade", "restart"]);
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v2" });
  });

  it("the node is stopped while cosmovisor backs up: nothing runs on it", () => {
    const e = staged();
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 - 18 * MIN });
    expect(e.nodeStatus("val1")?.status).toBe("stopped");
  });

  it("a snapshot taken mid-way continues exactly as the original", () => {
    const e = staged();
    e.run({ untilTimeMs: GENESIS + PLAN * 6000 - 10 * MIN });
    const c = ChainEngine.fromSnapshot(e.host, structuredClone(e.snapshot()), { keepTrace: true });
    const end = GENESIS + PLAN * 6000 + 30 * MIN;
    e.run({ untilTimeMs: end });
    c.run({ untilTimeMs: end });
    expect(c.traceHash()).toBe(e.traceHash());
    expect(c.halts).toEqual(e.halts);
  });
});
