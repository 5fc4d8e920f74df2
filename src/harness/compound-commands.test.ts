import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { correctHeight } from "../../properties/correct-height.js";
import { govFollowsTally } from "../../properties/gov-follows-tally.js";
import { modelAgreement } from "../../properties/model-agreement.js";
import { storeUpgradesOnce } from "../../properties/store-upgrades-once.js";
import { addressOfName } from "../core/address.js";
import { committedBank } from "../scenario/simulate.js";
import { type CommandData, emptyModel, HarnessCommand, runCommand } from "./commands.js";
import { commandArbitraries } from "./commands-arbitraries.js";
import { checkProperty } from "./property.js";
import { Session } from "./session.js";
import { MIN_DEPOSIT, type WorldOptions } from "./world.js";

/** Runs `commands` as a run does (the model's labels and preconditions) on a session of `world`. */
function run(commands: readonly CommandData[], world: WorldOptions = { seed: 3 }): Session {
  const s = new Session(world);
  const m = emptyModel();
  for (const data of commands) {
    const c = new HarnessCommand(data);
    if (c.check(m)) c.run(m, { execute: (d, label) => runCommand(s, d, label) });
  }
  return s;
}

const VAL1 = addressOfName("val1");
const GENESIS_STAKE = 1_000_000_000_000n;
const stakeOf = (s: Session, address: string) =>
  committedBank(s.sim, [address])
    ?.balances.get(address)
    ?.find((c) => c.denom === "stake")?.amount;
const holds = { holds: true };

describe("decide: votes aimed at an outcome, then the tally", () => {
  // Text proposals (the regular minimum deposit, from val1) under the reference defaults (burn on veto only).
  const cases = [
    ["pass", "passed", GENESIS_STAKE],
    ["reject", "rejected", GENESIS_STAKE],
    ["veto", "rejected", GENESIS_STAKE - MIN_DEPOSIT],
    ["veto-below", "passed", GENESIS_STAKE],
    ["no-quorum", "rejected", GENESIS_STAKE],
    ["abstain", "rejected", GENESIS_STAKE],
    ["pass-over-abstain", "passed", GENESIS_STAKE],
    ["yes-at-threshold", "rejected", GENESIS_STAKE],
  ] as const;
  for (const [outcome, status, val1Stake] of cases) {
    it(`${outcome}: the proposal is ${status} in the same command, its deposit ${val1Stake === GENESIS_STAKE ? "refunded" : "burned"}`, () => {
      const s = run([{ kind: "decide", on: "new", outcome }]);
      const p = s.sim.proposals[0]!;
      expect(p.status).toBe(status);
      expect(s.sim.lastBlockTimeMs).toBeGreaterThanOrEqual(p.votingEndTimeMs!);
      expect(stakeOf(s, VAL1)).toBe(val1Stake);
      expect(checkProperty(s, govFollowsTally)).toEqual(holds);
      expect(checkProperty(s, modelAgreement)).toEqual(holds);
    });
  }

  it("burns a vetoed proposal's deposit only with burn_vote_veto, and a quorum miss only with burn_vote_quorum", () => {
    const gov = {
      burnVoteQuorum: true,
      burnVoteVeto: false,
      burnProposalDepositPrevote: true,
      proposalCancelRatio: "1",
      proposalCancelDest: "community-pool" as const,
    };
    for (const [outcome, burned] of [
      ["veto", false],
      ["no-quorum", true],
      ["abstain", false],
      ["yes-at-threshold", false],
    ] as const) {
      const s = run(
        [
          { kind: "propose-text", expedited: false },
          { kind: "decide", on: "newest", outcome },
        ],
        { seed: 3, gov },
      );
      expect(stakeOf(s, VAL1), outcome).toBe(burned ? GENESIS_STAKE - MIN_DEPOSIT : GENESIS_STAKE);
      expect(checkProperty(s, govFollowsTally), outcome).toEqual(holds);
    }
  });

  it("an expedited proposal with yes at 2/3 misses the expedited threshold (0.667), falls back, and is decided as regular", () => {
    const s = run([
      { kind: "propose-text", expedited: true },
      { kind: "decide", on: "newest", outcome: "veto-below" },
    ]);
    const p = s.sim.proposals[0]!;
    // The fallback deletes the votes: the regular tally then misses the quorum, and the deposit is refunded.
    expect(p.status).toBe("rejected");
    expect(s.sim.lastBlockTimeMs).toBeGreaterThanOrEqual(p.votingEndTimeMs!);
    expect(stakeOf(s, VAL1)).toBe(GENESIS_STAKE);
    expect(checkProperty(s, govFollowsTally)).toEqual(holds);
  });

  it("does nothing without a proposal in its voting period", () => {
    const s = run([
      { kind: "propose-upgrade", name: "v2", offset: 3, expedited: false, deposit: "partial" },
      { kind: "decide", on: "newest", outcome: "pass" },
    ]);
    expect(s.sim.proposals[0]!.status).toBe("deposit_period");
    expect(s.sim.stepResults().filter((r) => r.action === "vote")).toEqual([]);
  });
});

describe("coordinated-skip", () => {
  it("more than 2/3 of the power skips the plan height: SKIPPED is logged, the fourth halts, the model agrees", () => {
    const s = run([
      { kind: "emergency-upgrade", name: "v2", offset: 3 },
      { kind: "coordinated-skip", nodes: 3 },
    ]);
    const planHeight = s.sim.halts[0]?.height;
    expect(s.sim.halts.map((h) => [h.node, h.kind])).toEqual([["val4", "upgrade-needed"]]);
    expect(s.sim.height).toBeGreaterThan(planHeight!);
    const lines = s.sim.blockLogs.get(planHeight!) ?? [];
    expect(lines).toContainEqual({
      level: "info",
      module: "x/upgrade",
      message: `UPGRADE "v2" SKIPPED at ${planHeight}: `,
    });
    expect(checkProperty(s, modelAgreement)).toEqual(holds);
  });

  it("every validator skipping: no halt at all; without a plan the command does nothing", () => {
    const s = run([
      { kind: "emergency-upgrade", name: "v2", offset: 3 },
      { kind: "coordinated-skip", nodes: 4 },
    ]);
    expect(s.sim.halts).toEqual([]);
    expect(s.sim.committed()?.plan ?? null).toBeNull();
    expect(checkProperty(s, modelAgreement)).toEqual(holds);
    const none = run([{ kind: "coordinated-skip", nodes: 4 }]);
    expect(none.sim.stepResults()).toEqual([]);
  });
});

describe("coordinated-upgrade", () => {
  it("in the store-deletes world, v2 deletes the store it still mounts: no node commits it after the upgrade", () => {
    const s = run(
      [
        { kind: "coordinated-upgrade", name: "v2", offset: 2, binary: "v2" },
        { kind: "advance", blocks: 2 },
      ],
      {
        seed: 3,
        variant: "store-deletes",
      },
    );
    expect(s.sim.proposals[0]!.status).toBe("passed");
    expect(s.sim.halts.map((h) => h.kind)).toEqual([
      "upgrade-needed",
      "upgrade-needed",
      "upgrade-needed",
      "upgrade-needed",
    ]);
    for (const node of s.sim.nodeNames()) {
      expect(s.sim.nodeStatus(node)!.binary).toBe("v2");
      expect(s.sim.host.readCommitted(s.sim.nodeState(node)!).stores).not.toContain("legacy");
    }
    expect(checkProperty(s, storeUpgradesOnce)).toEqual(holds);
  });

  it("in the standard world the model agrees through the halt and the switch", () => {
    const s = run([
      { kind: "coordinated-upgrade", name: "v2", offset: 1, binary: "v2" },
      { kind: "advance", blocks: 2 },
    ]);
    expect(s.sim.halts).toHaveLength(4);
    expect(checkProperty(s, modelAgreement)).toEqual(holds);
    expect(checkProperty(s, govFollowsTally)).toEqual(holds);
  });
});

describe("outage-over-voting-end", () => {
  it("the proposer's cancel lands in the first block after the outage and is refused before the tally", () => {
    const s = run([{ kind: "propose-text", expedited: false }, { kind: "outage-over-voting-end" }]);
    const cancel = s.sim.stepResults().find((r) => r.action === "cancelProposal");
    expect(cancel?.error).toBe("voting period is already ended for this proposal 1: voting period already ended");
    expect(s.sim.proposals[0]!.status).toBe("rejected");
    expect(checkProperty(s, govFollowsTally)).toEqual(holds);
    expect(checkProperty(s, modelAgreement)).toEqual(holds);
  });
});

describe("the generator", () => {
  it("draws every compound command, decide at every tally outcome, and v2 upgrades in most coordinated upgrades", () => {
    const all = fc.sample(fc.oneof(...commandArbitraries()), { numRuns: 4000, seed: 1 });
    const kinds = new Set(all.map((c) => c.kind));
    for (const k of ["decide", "coordinated-skip", "coordinated-upgrade", "outage-over-voting-end"])
      expect(kinds, k).toContain(k);
    const outcomes = new Set(all.flatMap((c) => (c.kind === "decide" ? [c.outcome] : [])));
    expect(outcomes.size).toBe(8);
    const upgrades = all.filter((c) => c.kind === "coordinated-upgrade");
    expect(upgrades.filter((c) => c.name === "v2" && c.binary === "v2").length * 2).toBeGreaterThan(upgrades.length);
  });
});

describe("a plan skipped and scheduled again in the same block", () => {
  it("is due at the next block: correct-height and the model agree (found by the campaign at seed 3)", () => {
    const s = run(
      [
        { kind: "coordinated-upgrade", name: "v2", offset: 1, binary: "v1" },
        { kind: "swap", node: "val1", binary: "v2" },
        { kind: "emergency-upgrade", name: "v2", offset: 0 },
        { kind: "swap", node: "val2", binary: "v3" },
        { kind: "coordinated-skip", nodes: 4 },
      ],
      { seed: 728442079, sidecars: { val4: 0 } },
    );
    const skipped = s.blocks.find((b) => b.skipped !== null)!;
    const applied = s.blocks.find((b) => b.applied !== null)!;
    expect(applied.height).toBe(skipped.height + 1);
    expect(checkProperty(s, correctHeight)).toEqual(holds);
    expect(checkProperty(s, modelAgreement)).toEqual(holds);
  });
});
