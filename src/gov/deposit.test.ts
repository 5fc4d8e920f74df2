import { create } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { alice, attrs, bob, DAY, TestChain } from "../../test/kit/gov.js";
import { coinsToProto } from "../bank/coins.js";
import { addressOfName } from "../core/address.js";
import { type ChainError, errorText, type Result } from "../core/errors.js";
import { ParamsSchema, ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import { MsgDepositSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { defaultParams } from "./params.js";

const GOV = addressOfName("gov");

function deposit(c: TestChain, id: bigint, depositor: string, amount: string) {
  const [n, denom] = [amount.match(/^\d+/)?.[0] ?? "0", amount.replace(/^\d+/, "")];
  const msg = create(MsgDepositSchema, {
    proposalId: id,
    depositor,
    amount: amount === "" ? [] : coinsToProto([{ denom, amount: BigInt(n) }]),
  });
  return c.tx((ctx) => c.gov.deposit(ctx, msg));
}

const text = (r: Result<unknown, ChainError>): string => (r.ok ? "ok" : errorText(r.error));

function proposal(c: TestChain, id: bigint) {
  const r = c.gov.queryProposal(c.ctx(), id);
  return r.ok ? r.value.proposal : undefined;
}

describe("MsgDeposit", () => {
  it("accumulates total and per-depositor records; the deposit completing min_deposit starts voting in the tx", () => {
    const c = new TestChain();
    c.submit({ deposit: "4000000stake" });
    const first = deposit(c, 1n, bob, "3000000stake");
    expect(first.result.ok).toBe(true);
    expect(first.events.map((e) => e.type)).toEqual(["proposal_deposit"]);
    expect(proposal(c, 1n)?.status).toBe(ProposalStatus.DEPOSIT_PERIOD);
    const second = deposit(c, 1n, bob, "3000000stake");
    expect(second.events.map((e) => attrs(e))).toEqual([
      [
        ["amount", "3000000stake"],
        ["proposal_id", "1"],
      ],
      [["voting_period_start", "1"]],
    ]);
    expect(second.events[1]!.type).toBe("proposal_deposit");
    expect(proposal(c, 1n)?.status).toBe(ProposalStatus.VOTING_PERIOD);
    const d = c.gov.queryDeposit(c.ctx(), 1n, bob);
    expect(d.ok && d.value.deposit?.amount.map((x) => x.amount)).toEqual(["6000000"]);
    expect(c.balance(GOV)).toBe(10_000_000n);
  });

  it("is accepted during the voting period without a second activation", () => {
    const c = new TestChain();
    const id = c.submitActive();
    const end = timestampMs(proposal(c, id)!.votingEndTime!);
    c.advance(DAY);
    const r = deposit(c, id, bob, "200000stake");
    expect(r.events.map((e) => e.type)).toEqual(["proposal_deposit"]);
    expect(proposal(c, id)?.totalDeposit.map((x) => x.amount)).toEqual(["10200000"]);
    expect(timestampMs(proposal(c, id)!.votingEndTime!)).toBe(end);
  });

  it("rejects bad input in the reference's words", () => {
    const c = new TestChain();
    c.submit({ deposit: "100000stake" });
    expect(text(deposit(c, 1n, "x", "1stake").result)).toContain("invalid depositor address: ");
    expect(text(deposit(c, 1n, bob, "").result)).toBe(": invalid coins");
    expect(text(deposit(c, 9n, bob, "1000000stake").result)).toBe(
      "collections: not found: key '9' of type github.com/cosmos/gogoproto/chain.gov.v1.Proposal",
    );
    expect(text(deposit(c, 1n, bob, "1000000atom").result)).toBe(
      "deposited 1000000atom, but gov accepts only the following denom(s): [stake]: invalid deposit denom",
    );
    expect(text(deposit(c, 1n, bob, "99999stake").result)).toBe(
      "received 99999stake but need at least one of the following: 100000stake: minimum deposit is too small",
    );
    expect(text(deposit(c, 1n, addressOfName("poor"), "100000stake").result)).toBe(
      "spendable balance 0stake is smaller than 100000stake: insufficient funds",
    );
  });

  it("is refused once the proposal is decided", () => {
    const c = new TestChain();
    const id = c.submitActive();
    c.advance(2 * DAY);
    c.endBlock();
    expect(proposal(c, id)?.status).toBe(ProposalStatus.REJECTED);
    expect(text(deposit(c, id, bob, "100000stake").result)).toBe("1: inactive proposal");
  });
});

describe("deposit period expiry", () => {
  it("drops at deposit_end_time inclusive, refunds and deletes, and reports the fate", () => {
    const c = new TestChain();
    const before = c.balance(alice);
    c.submit({ deposit: "100000stake" });
    c.advance(2 * DAY - 1);
    const early = c.endBlock();
    expect(early.result.ok && early.result.value.outcomes).toEqual([]);
    c.advance(1);
    const due = c.endBlock();
    expect(due.events.map((e) => [e.type, attrs(e)])).toEqual([
      [
        "inactive_proposal",
        [
          ["proposal_id", "1"],
          ["proposal_result", "proposal_dropped"],
        ],
      ],
    ]);
    if (!due.result.ok) throw new Error("end block failed");
    const fate = { id: 1n, fate: "dropped", height: c.ctx().height, time: c.time };
    expect(due.result.value.fates).toEqual([fate]);
    expect(due.result.value.outcomes).toEqual([{ kind: "dropped", id: 1n, depositsBurned: false, fate }]);
    expect(c.balance(alice)).toBe(before);
    const q = c.gov.queryProposal(c.ctx(), 1n);
    expect(q).toEqual({ ok: false, error: { code: "NotFound", message: "proposal 1 doesn't exist" } });
    const deposits = c.gov.queryDeposits(c.ctx(), 1n);
    expect(deposits.ok && deposits.value.deposits).toEqual([]);
  });

  it("a deposit completing AT deposit_end_time activates the proposal instead of letting it drop", () => {
    const c = new TestChain();
    c.submit({ deposit: "100000stake" });
    c.advance(2 * DAY);
    const r = deposit(c, 1n, bob, "9900000stake");
    expect(r.events.map((e) => e.type)).toEqual(["proposal_deposit", "proposal_deposit"]);
    const end = c.endBlock();
    expect(end.events).toEqual([]);
    expect(proposal(c, 1n)?.status).toBe(ProposalStatus.VOTING_PERIOD);
  });

  it("burns expired deposits when burn_proposal_deposit_prevote is set", () => {
    const c = new TestChain({
      params: create(ParamsSchema, { ...defaultParams(), burnProposalDepositPrevote: true }),
    });
    const supply = c.bank.supply(c.ctx(), "stake");
    c.submit({ deposit: "100000stake" });
    deposit(c, 1n, bob, "200000stake");
    c.advance(2 * DAY);
    const r = c.endBlock();
    expect(r.result.ok && r.result.value.outcomes[0]).toMatchObject({ kind: "dropped", depositsBurned: true });
    expect(c.bank.supply(c.ctx(), "stake")).toBe(supply - 300_000n);
    expect(c.balance(GOV)).toBe(0n);
  });

  it("drops several proposals in (deposit_end_time, id) order", () => {
    const c = new TestChain();
    c.submit({ deposit: "100000stake" });
    c.advance(1000);
    c.submit({ deposit: "100000stake" });
    c.submit({ deposit: "100000stake" });
    c.advance(3 * DAY);
    const r = c.endBlock();
    expect(r.events.map((e) => e.attributes[0]!.value)).toEqual(["1", "2", "3"]);
  });
});
