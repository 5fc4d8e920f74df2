/**
 * The node-action and clock commands of the model-based test (commands.ts composes them): what operators do to
 * their nodes (swap a binary, restart with skip heights, stop) and how the harness lets the chain run (blocks, up to
 * the plan height or a voting end, simulated time). Each builds its chain action once; the session derives the
 * step's scenario form from it (scenario/step-document.ts).
 *
 * Reference: cosmovisor's swap of the binary at an upgrade halt and the node's `--unsafe-skip-upgrades`
 * (cosmos-sdk v0.50 x/upgrade abci.go), gov's voting end (x/gov EndBlocker).
 */
import { CANCEL_SIGNER } from "./commands-gov.js";
import type { Session } from "./session.js";
import { type BinaryName, BLOCK_MS, VALIDATORS, type ValidatorName } from "./world.js";

/** The node-action and clock commands, as plain data (commands.ts `CommandData`). */
export type NodeCommand =
  | { readonly kind: "advance"; readonly blocks: number }
  | { readonly kind: "advance-to-plan"; readonly delta: number }
  /**
   * Waits for the voting end of the newest proposal in its voting period: the next command's transactions land in
   * the block whose time first reaches it, shifted by `delta` blocks (0: the block that also tallies the proposal,
   * after its transactions; -1: the last block before; +1: the first after). While the chain is halted or stalled,
   * the clock moves on to that time instead, so the first block after the outage comes past the voting end.
   * `next: "cancel"` has the proposer cancel that proposal right away, so the cancel races its voting end (accepted
   * at the end itself, refused once the end has passed, whether or not the proposal was tallied yet).
   */
  | { readonly kind: "advance-to-voting-end"; readonly delta: number; readonly next: "nothing" | "cancel" }
  | { readonly kind: "advance-time"; readonly ms: number }
  | { readonly kind: "swap"; readonly node: ValidatorName; readonly binary: BinaryName }
  /** The operators of every validator switch to `binary` (a coordinated upgrade, or a coordinated mistake). */
  | { readonly kind: "swap-all"; readonly binary: BinaryName }
  | { readonly kind: "restart"; readonly node: ValidatorName; readonly skipPlanHeight: boolean }
  | { readonly kind: "stop"; readonly node: ValidatorName };

const NODE_KINDS: ReadonlySet<string> = new Set<NodeCommand["kind"]>([
  "advance",
  "advance-to-plan",
  "advance-to-voting-end",
  "advance-time",
  "swap",
  "swap-all",
  "restart",
  "stop",
]);

/** Whether `c` is a node-action or clock command. */
export const isNodeCommand = (c: { readonly kind: string }): c is NodeCommand => NODE_KINDS.has(c.kind);

const signed = (n: number): string => `${n >= 0 ? "+" : ""}${n}`;

/** Readable scenario-like text of a node-action or clock command (commands.ts `describe`). */
export function describeNode(c: NodeCommand): string {
  switch (c.kind) {
    case "advance":
      return `advance(${c.blocks} blocks)`;
    case "advance-to-plan":
      return `advance-to-plan(${signed(c.delta)})`;
    case "advance-to-voting-end":
      return `advance-to-voting-end(${signed(c.delta)})${c.next === "cancel" ? " then withdraw(it)" : ""}`;
    case "advance-time":
      return `advance-time(${c.ms} ms)`;
    case "swap":
      return `swapBinary(${c.node}, ${c.binary})`;
    case "swap-all":
      return `swapBinary(every validator, ${c.binary})`;
    case "restart":
      return `restart(${c.node}${c.skipPlanHeight ? ", skip the plan height" : ""})`;
    case "stop":
      return `stop(${c.node})`;
  }
}

/** advance-to-voting-end (see NodeCommand). */
function advanceToVotingEnd(s: Session, c: Extract<NodeCommand, { kind: "advance-to-voting-end" }>): void {
  const sim = s.sim;
  const voting = sim.proposals.filter((p) => p.status === "voting_period" && p.votingEndTimeMs !== null);
  const newest = voting[voting.length - 1];
  const end = newest?.votingEndTimeMs;
  if (newest === undefined || end === undefined || end === null) return;
  const targetMs = end + c.delta * BLOCK_MS;
  // Blocks come every BLOCK_MS: stop where the next block is the first at or past the target.
  const blocks = sim.stalled ? 0 : Math.ceil((targetMs - sim.lastBlockTimeMs) / BLOCK_MS) - 1;
  if (blocks > 0) s.advanceBlocks(blocks);
  if (sim.stalled && targetMs > sim.nowMs) s.advanceTime(targetMs - sim.nowMs);
  if (c.next === "cancel" && newest.label !== null)
    s.act({ kind: "cancelProposal", proposal: newest.label, from: CANCEL_SIGNER.proposer });
}

/** Runs one node-action or clock command against the session. */
export function runNodeCommand(s: Session, c: NodeCommand): void {
  const plan = () => s.sim.committed()?.plan ?? null;
  switch (c.kind) {
    case "advance":
      s.advanceBlocks(c.blocks);
      return;
    case "advance-to-plan": {
      const p = plan();
      if (p === null) return;
      const target = p.height + c.delta;
      if (target > s.sim.height) s.advanceBlocks(target - s.sim.height);
      return;
    }
    case "advance-to-voting-end":
      advanceToVotingEnd(s, c);
      return;
    case "advance-time":
      s.advanceTime(c.ms);
      return;
    case "swap":
      s.act({ kind: "swapBinary", node: c.node, binary: c.binary });
      return;
    case "swap-all":
      for (const node of VALIDATORS) s.act({ kind: "swapBinary", node, binary: c.binary });
      return;
    case "restart": {
      const p = plan();
      s.act({ kind: "restart", node: c.node, skipUpgradeHeights: c.skipPlanHeight && p !== null ? [p.height] : [] });
      return;
    }
    case "stop":
      s.act({ kind: "stop", node: c.node });
      return;
  }
}
