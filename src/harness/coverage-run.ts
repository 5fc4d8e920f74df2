import { type CoveragePath, type CoverageReport, coverageFromIds, coveragePaths } from "../../models/coverage.js";
import { createOracle, step } from "../../models/oracle.js";
import type { OracleEvent, OracleInput, UpgradeMsg } from "../../models/types.js";
import type { ScenarioDocument } from "../scenario/schema.js";
import { conformance } from "./conformance.js";
import { type HarnessMsg, Session } from "./session.js";

/**
 * Structural coverage against the REAL chain. `coveragePaths()` (models/coverage.ts, built with xstate/graph)
 * gives event paths that together fire every transition of the oracle in a small world: validator `a` with 3/4 of
 * the power, `b` with 1/4, binaries `v1` (no handler) and `v2` (handler for `up1`). Each path is translated into
 * chain actions (a BLOCK is one block attempt, an exec is a real proposal or authority transaction, a start is a
 * binary swap) and run on the chain; the oracle is fed from the chain's trace as in every property run, so the
 * transitions counted are the ones the real chain drove.
 */
export const COVERAGE_CHAIN: ScenarioDocument = {
  name: "coverage-world",
  chain: {
    blockTime: "6s",
    validators: [
      { name: "a", power: 300 },
      { name: "b", power: 100 },
    ],
    gov: { maxDepositPeriod: "60s", votingPeriod: "60s", expeditedVotingPeriod: "30s" },
  },
  binaries: { v1: {}, v2: { upgrades: { up1: { handler: "noop" } } } },
  genesisBinary: "v1",
};

/** The oracle's view of COVERAGE_CHAIN (abstract handlers; powers in the same ratio). */
export const COVERAGE_ORACLE: OracleInput = {
  binaries: { v1: { handlers: {} }, v2: { handlers: { up1: "ok" } } },
  nodes: [
    { name: "a", binary: "v1", power: 3 },
    { name: "b", binary: "v1", power: 1 },
  ],
};

/** Blocks from a proposal's submission to the block that tallies it (60 s voting at 6 s blocks). */
const PROPOSAL_BLOCKS = 10;

/**
 * Plan heights relative to the executing block `execAt`: a plan due at once (offset ≤ 1) keeps its offset exactly;
 * a later one gets LATER_MARGIN more blocks, so that a following proposal (PROPOSAL_BLOCKS to pass) still finds it
 * pending. The oracle's coarse states do not distinguish "3 blocks later" from "33 blocks later".
 */
const LATER_MARGIN = 30;

function harnessMsgs(
  msgs: readonly UpgradeMsg[],
  pathExecHeight: number,
  execAt: number,
  relax: boolean,
): HarnessMsg[] {
  return msgs.map((m) => {
    if (m.type === "cancelUpgrade") return { kind: "cancelUpgrade" };
    const offset = Number(m.plan.height) - pathExecHeight;
    const height = offset <= 1 && !(relax && offset === 1) ? execAt + offset : execAt + offset + LATER_MARGIN;
    return { kind: "softwareUpgrade", name: m.plan.name, height, info: m.plan.info ?? "" };
  });
}

/**
 * Runs one oracle event as chain actions. Plan heights keep their distance to the block that executes them.
 * `relax`: the next path event is another execution in the same block. The chain cannot always run two executions
 * in one block in the path's order (transactions precede the EndBlocker), so the first one's plan is kept pending
 * ("later" instead of "due next") and the second runs in a following block; both are the `scheduled` state.
 */
function runEvent(s: Session, ev: OracleEvent, n: number, pathHeight: number, relax: boolean): void {
  const h = s.sim.height;
  switch (ev.type) {
    case "BLOCK":
      if (s.sim.stalled) s.act({ kind: "expect", expect: {} });
      else s.advanceBlocks(1);
      return;
    case "AUTHORITY_EXEC":
      // The path executes at the committed height h; the chain's transaction lands in h+1.
      s.authorityExec(harnessMsgs(ev.msgs, ev.height, h + 1, relax));
      return;
    case "PROPOSAL_EXECUTED": {
      // Submitted now (lands in h+1), tallied PROPOSAL_BLOCKS later.
      const execAt = h + 1 + PROPOSAL_BLOCKS;
      const label = `cov${n}`;
      s.submitProposal(label, harnessMsgs(ev.msgs, ev.height, execAt, relax), {
        expedited: false,
        deposit: 10_000_000n,
        proposer: "a",
        // A proposal without messages (a text proposal) needs metadata.
        ...(ev.msgs.length === 0 ? { metadata: "text proposal" } : {}),
      });
      s.act({ kind: "vote", proposal: label, votes: new Map([["a", "yes"]]) });
      while (s.sim.height < execAt && !s.sim.stalled) s.advanceBlocks(1);
      return;
    }
    case "NODE_STARTED": {
      const skip = (ev.skipHeights ?? []).map((x) => x - pathHeight + h);
      s.act({ kind: "swapBinary", node: ev.node, binary: ev.binary, skipUpgradeHeights: skip });
      return;
    }
    case "NODE_STOPPED":
      s.act({ kind: "stop", node: ev.node });
      return;
    case "NODE_CAUGHT_UP":
      return; // the chain catches a node up when it starts
  }
}

export interface ChainCoverage {
  readonly paths: number;
  readonly report: CoverageReport;
  /** Conformance differences seen while running the paths (expected empty). */
  readonly disagreements: readonly string[];
}

/** Runs every coverage path on the real chain and reports the oracle transitions the chain drove. */
export function chainCoverage(paths: readonly CoveragePath[] = coveragePaths()): ChainCoverage {
  const fired = new Set<string>();
  const disagreements: string[] = [];
  paths.forEach((p, i) => {
    const s = new Session({ doc: COVERAGE_CHAIN, oracleInput: COVERAGE_ORACLE });
    // The chain starts at height 1; the paths start at 0, whose first BLOCK is genesis.
    let path = createOracle(COVERAGE_ORACLE);
    p.events.forEach((ev, k) => {
      const pathHeight = path.snapshot.context.height;
      path = step(path, ev);
      if (k === 0 && ev.type === "BLOCK" && pathHeight === 0) return; // genesis: already committed
      const next = p.events[k + 1];
      const isExec = (e: OracleEvent | undefined) => e?.type === "PROPOSAL_EXECUTED" || e?.type === "AUTHORITY_EXEC";
      runEvent(
        s,
        ev,
        k,
        pathHeight,
        isExec(ev) &&
          isExec(next) &&
          next?.type !== undefined &&
          "height" in next! &&
          next.height === (ev as { height: number }).height,
      );
    });
    for (const id of s.fired) fired.add(id);
    for (const d of conformance(s)) disagreements.push(`path ${i}: ${d}`);
  });
  return { paths: paths.length, report: coverageFromIds(fired), disagreements };
}
