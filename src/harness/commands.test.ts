import { describe, expect, it } from "vitest";
import { type CommandData, emptyModel, HarnessCommand, runCommand } from "./commands.js";
import { Session } from "./session.js";

/** Runs `commands` on a session of the standard world: the session, its first proposal and the cancel's result. */
function run(commands: readonly CommandData[]) {
  const s = new Session({ seed: 3 });
  const m = emptyModel();
  for (const data of commands) {
    const c = new HarnessCommand(data);
    if (c.check(m)) c.run(m, { execute: (d, label) => runCommand(s, d, label) });
  }
  const proposal = s.sim.proposals[0]!;
  const cancel = s.sim.stepResults().find((r) => r.action === "cancelProposal");
  return { s, proposal, cancel };
}

const propose: CommandData = { kind: "propose-text", expedited: false };
const withdraw = (by: "proposer" | "other" = "proposer"): CommandData => ({ kind: "withdraw", target: "newest", by });

describe("advance-to-voting-end", () => {
  it("puts the next transaction in the block at the voting end (0), or in the last block before it (-1)", () => {
    for (const delta of [0, -1]) {
      const { s, proposal, cancel } = run([propose, { kind: "advance-to-voting-end", delta }, withdraw()]);
      // A cancel in the block at the voting end itself is accepted: transactions run before the EndBlocker.
      expect(cancel?.ok, `delta ${delta}`).toBe(true);
      expect(proposal.status).toBe("cancelled");
      expect(s.sim.lastBlockTimeMs - proposal.votingEndTimeMs!, `delta ${delta}`).toBe(delta * 6000);
    }
  });

  it("while the chain is stalled, moves the clock to the voting end: a cancel in the first block after is refused", () => {
    const stall: CommandData[] = [
      { kind: "stop", node: "val1" },
      { kind: "stop", node: "val2" },
    ];
    const { proposal, cancel } = run([
      propose,
      ...stall,
      { kind: "advance-to-voting-end", delta: 0 },
      withdraw(),
      { kind: "restart", node: "val1", skipPlanHeight: false },
    ]);
    expect(cancel?.error).toBe("voting period is already ended for this proposal 1: voting period already ended");
    expect(proposal.status).toBe("rejected");
  });
});

describe("withdraw and the proposal targets", () => {
  it("a cancel signed by another validator is refused; a closed proposal is still a target", () => {
    const other = run([propose, withdraw("other")]);
    expect(other.cancel?.error).toMatch(/^invalid proposer chain1\w+: invalid proposer$/);
    expect(other.proposal.status).toBe("voting_period");
    const decided = run([
      propose,
      { kind: "advance-to-voting-end", delta: 1 },
      { kind: "withdraw", target: "closed", by: "proposer" },
    ]);
    expect(decided.proposal.status).toBe("rejected");
    expect(decided.cancel?.error).toBe("proposal should be in the deposit or voting period: invalid proposal");
  });
});
