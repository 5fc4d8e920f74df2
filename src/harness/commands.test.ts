import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { govFollowsTally } from "../../properties/gov-follows-tally.js";
import { addressOfName } from "../core/address.js";
import { committedBank } from "../scenario/simulate.js";
import { type CommandData, emptyModel, HarnessCommand, runCommand } from "./commands.js";
import { commandArbitraries } from "./commands-arbitraries.js";
import { checkProperty } from "./property.js";
import { Session } from "./session.js";
import { EXPEDITED_MIN_DEPOSIT, MIN_DEPOSIT } from "./world.js";

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
      const { s, proposal, cancel } = run([
        propose,
        { kind: "advance-to-voting-end", delta, next: "nothing" },
        withdraw(),
      ]);
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
      { kind: "advance-to-voting-end", delta: 0, next: "nothing" },
      withdraw(),
      { kind: "restart", node: "val1", skipPlanHeight: false },
    ]);
    expect(cancel?.error).toBe("voting period is already ended for this proposal 1: voting period already ended");
    expect(proposal.status).toBe("rejected");
  });
});

describe("advance-to-voting-end, next a cancel: the proposer's cancel races the voting end", () => {
  it("lands in the block at the voting end and is accepted; one block late the proposal is already tallied", () => {
    const atEnd = run([propose, { kind: "advance-to-voting-end", delta: 0, next: "cancel" }]);
    expect(atEnd.cancel?.ok).toBe(true);
    expect(atEnd.proposal.status).toBe("cancelled");
    const late = run([propose, { kind: "advance-to-voting-end", delta: 1, next: "cancel" }]);
    expect(late.cancel?.error).toBe("proposal should be in the deposit or voting period: invalid proposal");
    expect(late.proposal.status).toBe("rejected");
  });

  it("after an outage past the voting end, the cancel in the first block is refused before the tally", () => {
    const { proposal, cancel } = run([
      propose,
      { kind: "stop", node: "val1" },
      { kind: "stop", node: "val2" },
      { kind: "advance-to-voting-end", delta: 1, next: "cancel" },
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
      { kind: "advance-to-voting-end", delta: 1, next: "nothing" },
      { kind: "withdraw", target: "closed", by: "proposer" },
    ]);
    expect(decided.proposal.status).toBe("rejected");
    expect(decided.cancel?.error).toBe("proposal should be in the deposit or voting period: invalid proposal");
  });
});

describe("deposit amounts", () => {
  const VAL2 = addressOfName("val2");
  const GOV = addressOfName("gov");
  const stakeOf = (s: Session, address: string) =>
    committedBank(s.sim, [address])
      ?.balances.get(address)
      ?.find((c) => c.denom === "stake")?.amount;

  it("the chain refuses each mistaken deposit with the reference's text, moves none of it, and keeps the valid one", () => {
    const { s } = run([
      propose,
      {
        kind: "deposit",
        target: "newest",
        amounts: ["at-ratio", "below-ratio", "empty", "other-denom", "over-balance", "valid"],
      },
    ]);
    const deposits = s.sim.stepResults().filter((r) => r.action === "deposit");
    expect(new Set(deposits.map((r) => r.height)).size).toBe(1);
    expect(deposits.map((r) => [r.ok, r.error])).toEqual([
      [true, null],
      [false, "received 99999stake but need at least one of the following: 100000stake: minimum deposit is too small"],
      [false, ": invalid coins"],
      [
        false,
        "deposited 1atom,50000000stake, but gov accepts only the following denom(s): [stake]: invalid deposit denom",
      ],
      [false, "spendable balance 999999900000stake is smaller than 1000000000001stake: insufficient funds"],
      [true, null],
    ]);
    // Only the accepted deposits (0.01 of the minimum, then the expedited minimum) left val2's account.
    expect(stakeOf(s, VAL2)).toBe(1_000_000_000_000n - 100_000n - EXPEDITED_MIN_DEPOSIT);
    expect(stakeOf(s, GOV)).toBe(MIN_DEPOSIT + 100_000n + EXPEDITED_MIN_DEPOSIT);
    // gov-follows-tally's model predicted every verdict and text, and the balances.
    expect(checkProperty(s, govFollowsTally)).toEqual({ holds: true });
  });

  it("an expedited proposal's floor is min_deposit_ratio of the expedited minimum", () => {
    const { s } = run([
      { kind: "propose-text", expedited: true },
      { kind: "deposit", target: "newest", amounts: ["at-ratio", "below-ratio", "valid"] },
    ]);
    const deposits = s.sim.stepResults().filter((r) => r.action === "deposit");
    expect(deposits.map((r) => r.error)).toEqual([
      null,
      "received 499999stake but need at least one of the following: 500000stake: minimum deposit is too small",
      null,
    ]);
    expect(stakeOf(s, VAL2)).toBe(1_000_000_000_000n - 500_000n - EXPEDITED_MIN_DEPOSIT);
    expect(checkProperty(s, govFollowsTally)).toEqual({ holds: true });
  });

  it("the generator keeps the valid amount last in every deposit command", () => {
    const deposits = fc
      .sample(fc.oneof(...commandArbitraries()), { numRuns: 2000, seed: 1 })
      .filter((c) => c.kind === "deposit");
    expect(deposits.length).toBeGreaterThan(0);
    for (const d of deposits) expect(d.amounts[d.amounts.length - 1]).toBe("valid");
    expect(deposits.some((d) => d.amounts.length > 1)).toBe(true);
  });
});
