import { create } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { alice, attrs, DAY, setMsg, submitMsg, TestChain, testMsg } from "../../test/kit/gov.js";
import { addressFromBytes, addressOfName, decodeAddress, govAuthority } from "../core/address.js";
import { errorText } from "../core/errors.js";
import { CoinSchema } from "../gen/chain/base/v1beta1/coin_pb.js";
import { ParamsSchema, ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import { defaultParams } from "./params.js";

const errorOf = (r: { result: { ok: boolean; error?: unknown } }): string => {
  if (r.result.ok) return "ok";
  return errorText((r.result as { ok: false; error: Parameters<typeof errorText>[0] }).error);
};

describe("MsgSubmitProposal checks, in order", () => {
  it("title, then summary, then proposer", () => {
    const c = new TestChain();
    expect(errorOf(c.submit({ title: "", summary: "", proposer: "bad" }))).toBe(
      "proposal title cannot be empty: invalid request",
    );
    expect(errorOf(c.submit({ summary: "", proposer: "bad" }))).toBe(
      "proposal summary cannot be empty: invalid request",
    );
    expect(errorOf(c.submit({ proposer: "" }))).toBe(
      "invalid proposer address: empty address string is not allowed: invalid address",
    );
    expect(errorOf(c.submit({ proposer: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn" }))).toBe(
      "invalid proposer address: hrp does not match bech32 prefix: expected 'chain' got 'cosmos': internal logic error: invalid address",
    );
  });

  it("needs messages or metadata; metadata JSON title/summary must match", () => {
    const c = new TestChain();
    expect(errorOf(c.submit({ messages: [] }))).toBe(
      "either metadata or Msgs length must be non-nil: no messages proposed",
    );
    expect(errorOf(c.submit({ messages: [], metadata: "ipfs://cid" }))).toBe("ok");
    expect(errorOf(c.submit({ metadata: '{"title":"Other","summary":"Summary"}' }))).toBe(
      "metadata title 'Other' must equal proposal title 'Title': invalid proposal content",
    );
    expect(errorOf(c.submit({ metadata: '{"title":"Title","summary":"x"}' }))).toBe(
      "metadata summary 'x' must equal proposal summary 'Summary': invalid proposal content",
    );
    expect(errorOf(c.submit({ metadata: '{"title":5}' }))).toBe("ok"); // does not decode: free text
    expect(errorOf(c.submit({ metadata: '{"title":"Title","summary":"Summary","details":"d"}' }))).toBe("ok");
  });

  it("validates the initial deposit before the proposal messages", () => {
    const c = new TestChain();
    expect(errorOf(c.submit({ deposit: "10000000atom", messages: [testMsg("/test.v1.MsgNoRoute")] }))).toBe(
      "deposited 10000000atom, but gov accepts only the following denom(s): [stake]: invalid deposit denom",
    );
  });

  it("an initial deposit that is not valid coins is refused as it is written, before the ratio (keeper validateInitialDeposit)", () => {
    const c = new TestChain();
    const submitWith = (coins: [string, string][]) => {
      const msg = submitMsg({});
      msg.initialDeposit = coins.map(([amount, denom]) => create(CoinSchema, { denom, amount }));
      return c.tx((ctx) => c.gov.submitProposal(ctx, msg));
    };
    expect(errorOf(submitWith([["0", "stake"]]))).toBe("0stake: invalid coins");
    expect(
      errorOf(
        submitWith([
          ["10000000", "stake"],
          ["1", "atom"],
        ]),
      ),
    ).toBe("10000000stake,1atom: invalid coins");
    expect(errorOf(submitWith([["10000000", "stake"]]))).toBe("ok");
  });

  it("min_deposit_ratio rejects an empty initial deposit under default params", () => {
    const c = new TestChain();
    expect(errorOf(c.submit({ deposit: "" }))).toBe(
      "received  but need at least one of the following: 100000stake: minimum deposit is too small",
    );
    expect(errorOf(c.submit({ deposit: "99999stake" }))).toBe(
      "received 99999stake but need at least one of the following: 100000stake: minimum deposit is too small",
    );
    expect(errorOf(c.submit({ deposit: "100000stake" }))).toBe("ok");
    // Expedited proposals use expedited_min_deposit as the base: 50,000,000 × 0.01.
    expect(errorOf(c.submit({ deposit: "499999stake", expedited: true }))).toBe(
      "received 499999stake but need at least one of the following: 500000stake: minimum deposit is too small",
    );
  });

  it("an empty initial deposit is accepted when min_deposit_ratio is 0 (it still goes through the deposit path)", () => {
    const c = new TestChain({ params: create(ParamsSchema, { ...defaultParams(), minDepositRatio: "0" }) });
    const r = c.submit({ deposit: "" });
    expect(r.result.ok).toBe(true);
    expect(r.events.map((e) => e.type)).toEqual(["submit_proposal", "proposal_deposit"]);
    expect(attrs(r.events[1]!)).toEqual([
      ["amount", ""],
      ["proposal_id", "1"],
    ]);
  });

  it("min_initial_deposit_ratio requires round(ratio × min) of every denom", () => {
    const c = new TestChain({ params: create(ParamsSchema, { ...defaultParams(), minInitialDepositRatio: "0.25" }) });
    expect(errorOf(c.submit({ deposit: "2499999stake" }))).toBe(
      "was (2499999stake), need (2500000stake): minimum deposit is too small",
    );
    expect(errorOf(c.submit({ deposit: "2500000stake" }))).toBe("ok");
  });

  it("length limits: metadata, then summary (40×), then title", () => {
    const c = new TestChain();
    expect(errorOf(c.submit({ metadata: "m".repeat(256) }))).toBe("got metadata with length 256: metadata too long");
    expect(errorOf(c.submit({ metadata: "m".repeat(255) }))).toBe("ok");
    expect(errorOf(c.submit({ summary: "s".repeat(10_201) }))).toBe("got summary with length 10201: summary too long");
    expect(errorOf(c.submit({ summary: "s".repeat(10_200) }))).toBe("ok");
    expect(errorOf(c.submit({ title: "t".repeat(256) }))).toBe("got metadata with length 256: metadata too long");
  });

  it("each message: ValidateBasic, exactly one signer, the gov account, a route", () => {
    const c = new TestChain();
    expect(errorOf(c.submit({ messages: [testMsg("/test.v1.MsgInvalid")] }))).toBe(
      "bad field: invalid request: invalid proposal message",
    );
    expect(errorOf(c.submit({ messages: [testMsg("/test.v1.MsgTwoSigners")] }))).toBe(
      "expected gov account as only signer for proposal message",
    );
    expect(errorOf(c.submit({ messages: [testMsg("/test.v1.MsgSet", { signer: alice })] }))).toBe(
      `${alice}: expected gov account as only signer for proposal message`,
    );
    expect(errorOf(c.submit({ messages: [setMsg("a", "b"), testMsg("/test.v1.MsgNoRoute")] }))).toBe(
      "/test.v1.MsgNoRoute: proposal message not recognized by router",
    );
    expect(c.router.calls).toEqual([]); // nothing is executed at submission
  });

  it("a signer that is no address of the chain is refused by the address codec (GetMsgV1Signers), before the count", () => {
    const c = new TestChain();
    const gov = decodeAddress(govAuthority())!;
    // The gov account's own bytes under another prefix: the codec refuses the prefix; the bytes are never compared.
    const otherPrefix = testMsg("/test.v1.MsgSet", { signer: addressFromBytes(gov, "osmo") });
    expect(errorOf(c.submit({ messages: [otherPrefix] }))).toBe(
      "hrp does not match bech32 prefix: expected 'chain' got 'osmo': internal logic error",
    );
    const notBech32 = c.submit({ messages: [testMsg("/test.v1.MsgTwoSigners", { signer: "gov" })] });
    expect(errorOf(notBech32)).toMatch(/^decoding bech32 failed: /);
    const long = addressFromBytes(new Uint8Array(256), "chain");
    expect(errorOf(c.submit({ messages: [testMsg("/test.v1.MsgSet", { signer: long })] }))).toBe(
      "address max length is 255, got 256: unknown address",
    );
    // Upper case is the same bech32 string: the signer is the gov account.
    const upper = testMsg("/test.v1.MsgSet", { signer: govAuthority().toUpperCase() });
    expect(errorOf(c.submit({ messages: [upper] }))).toBe("ok");
  });

  it("a failed submission leaves no trace (ids are not consumed)", () => {
    const c = new TestChain();
    expect(c.submit({ title: "" }).result.ok).toBe(false);
    const r = c.submit();
    expect(r.result).toEqual({ ok: true, value: 1n });
  });
});

describe("storing a proposal", () => {
  it("assigns ids from 1, sets times and emits submit_proposal with comma-prefixed type urls", () => {
    const c = new TestChain();
    const r = c.submit({ deposit: "100000stake", messages: [setMsg("a", "1"), testMsg("/test.v1.MsgFail")] });
    expect(r.result).toEqual({ ok: true, value: 1n });
    expect(attrs(r.events[0]!)).toEqual([
      ["proposal_id", "1"],
      ["proposal_messages", ",/test.v1.MsgSet,/test.v1.MsgFail"],
    ]);
    expect(r.events[1]!.type).toBe("proposal_deposit");
    expect(r.events).toHaveLength(2);
    const p = c.gov.queryProposal(c.ctx(), 1n);
    if (!p.ok) throw new Error(p.error.message);
    const proposal = p.value.proposal!;
    expect(proposal.status).toBe(ProposalStatus.DEPOSIT_PERIOD);
    expect(timestampMs(proposal.submitTime!)).toBe(c.time);
    expect(timestampMs(proposal.depositEndTime!)).toBe(c.time + 2 * DAY);
    expect(proposal.votingStartTime).toBeUndefined();
    expect(proposal.proposer).toBe(alice);
    expect(proposal.finalTallyResult?.yesCount).toBe("0");
    expect(proposal.totalDeposit.map((x) => `${x.amount}${x.denom}`)).toEqual(["100000stake"]);
    expect(c.balance(addressOfName("gov"))).toBe(100_000n);
    expect(c.submit().result).toEqual({ ok: true, value: 2n });
  });

  it("an initial deposit reaching min_deposit starts voting in the same transaction", () => {
    const c = new TestChain();
    const r = c.submit({ deposit: "10000000stake" });
    expect(r.events.map((e) => [e.type, ...attrs(e).map(([k]) => k)])).toEqual([
      ["submit_proposal", "proposal_id", "proposal_messages"],
      ["proposal_deposit", "amount", "proposal_id"],
      ["submit_proposal", "voting_period_start"],
    ]);
    expect(attrs(r.events[1]!)).toEqual([
      ["amount", "10000000stake"],
      ["proposal_id", "1"],
    ]);
    expect(attrs(r.events[2]!)).toEqual([["voting_period_start", "1"]]);
    const p = c.gov.queryProposal(c.ctx(), 1n);
    if (!p.ok) throw new Error(p.error.message);
    expect(p.value.proposal!.status).toBe(ProposalStatus.VOTING_PERIOD);
    expect(timestampMs(p.value.proposal!.votingStartTime!)).toBe(c.time);
    expect(timestampMs(p.value.proposal!.votingEndTime!)).toBe(c.time + 2 * DAY);
  });

  it("expedited proposals activate at expedited_min_deposit and vote for expedited_voting_period", () => {
    const c = new TestChain();
    c.submit({ deposit: "10000000stake", expedited: true });
    const p1 = c.gov.queryProposal(c.ctx(), 1n);
    if (!p1.ok) throw new Error(p1.error.message);
    expect(p1.value.proposal!.status).toBe(ProposalStatus.DEPOSIT_PERIOD);
    c.submit({ deposit: "50000000stake", expedited: true });
    const p2 = c.gov.queryProposal(c.ctx(), 2n);
    if (!p2.ok) throw new Error(p2.error.message);
    expect(p2.value.proposal!.status).toBe(ProposalStatus.VOTING_PERIOD);
    expect(timestampMs(p2.value.proposal!.votingEndTime!)).toBe(c.time + DAY);
  });

  it("insufficient funds fail the submission with the bank's text", () => {
    const c = new TestChain();
    const poor = addressOfName("poor");
    expect(errorOf(c.submit({ proposer: poor }))).toBe(
      "spendable balance 0stake is smaller than 10000000stake: insufficient funds",
    );
    expect(govAuthority()).toBe(addressOfName("gov"));
  });
});
