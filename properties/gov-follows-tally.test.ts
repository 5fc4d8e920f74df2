import { describe, expect, it } from "vitest";
import type { SimTx } from "../src/app/types.js";
import type { TraceEvent } from "../src/chain/trace-events.js";
import { addressOfName } from "../src/core/address.js";
import type { Event } from "../src/core/context.js";
import { checkProperty } from "../src/harness/property.js";
import { runProperty } from "../src/harness/run-property.js";
import type { Session } from "../src/harness/session.js";
import { scenarioFromData } from "../src/scenario/load.js";
import { CI_RUNS, CI_SEED } from "../test/kit/budget.js";
import { govFollowsTally } from "./gov-follows-tally.js";

/** The EndBlocker event a faithful chain emits for each decision and drop of `ev` (a block). */
function decisionEvents(ev: TraceEvent): Event[] {
  if (ev.kind !== "block") return [];
  const results: Record<string, readonly [string, string, string | undefined]> = {
    passed: ["active_proposal", "proposal_passed", "passed"],
    rejected: ["active_proposal", "proposal_rejected", "rejected"],
    "expedited-fallback": ["active_proposal", "expedited_proposal_rejected", "expedited proposal converted to regular"],
    dropped: ["inactive_proposal", "proposal_dropped", undefined],
  };
  return ev.gov.flatMap((g) => {
    const r = results[g.kind];
    if (r === undefined) return [];
    const [type, result, log] = r;
    const attributes = [
      { key: "proposal_id", value: `${g.id}` },
      { key: "proposal_result", value: result },
      ...(log === undefined ? [] : [{ key: "proposal_log", value: log }]),
    ];
    return [{ type, attributes }];
  });
}

/**
 * A session whose chain produced exactly `events`, in a world of four validators of power 100, 60 s periods; the
 * blocks' results carry the EndBlocker events of their decisions unless `blockEvents` says otherwise.
 */
function sessionOf(
  events: TraceEvent[],
  blockEvents: ReadonlyMap<number, readonly Event[]> = new Map(
    events.flatMap((e) => (e.kind === "block" ? [[e.height, decisionEvents(e)] as const] : [])),
  ),
): Session {
  const doc = {
    name: "gov-world",
    chain: {
      validators: ["val1", "val2", "val3", "val4"].map((name) => ({ name, power: 100 })),
      gov: { votingPeriod: "60s", expeditedVotingPeriod: "30s" },
    },
    binaries: { v1: {} },
    genesisBinary: "v1",
  };
  const scenario = scenarioFromData("gov-world.yaml", doc);
  if (!scenario.ok) throw new Error(JSON.stringify(scenario.error));
  // Each property's state for this session, made on its first check, as Session.stateOf keeps it.
  const states = new Map<object, unknown>();
  // No committed bank state: the deposit accounting is checked only on real chains (the suite's first test).
  const s = {
    doc,
    scenario: scenario.value,
    sim: { traceEventsFrom: (from: number) => events.slice(from), committed: () => undefined, blockEvents },
    stateOf: (p: { readonly init?: (view: unknown) => unknown }) => {
      if (!states.has(p)) states.set(p, p.init?.(s));
      return states.get(p);
    },
  };
  return s as unknown as Session;
}

const T0 = Date.UTC(2026, 0, 1);
const ok = { ok: true } as const;
const submit = (expedited = false) =>
  ({
    tx: {
      kind: "submitProposal",
      expedited,
      proposer: addressOfName("val1"),
      initialDeposit: [{ denom: "stake", amount: expedited ? 50_000_000n : 10_000_000n }],
    } as unknown as SimTx,
    result: ok,
  }) as const;
const vote = (voter: string, option: "yes" | "no" | "no_with_veto" | "abstain") =>
  ({ tx: { kind: "vote", proposalId: 1n, voter: addressOfName(voter), option } as SimTx, result: ok }) as const;
function block(height: number, timeMs: number, txs: unknown[], gov: unknown[]): TraceEvent {
  return {
    kind: "block",
    height,
    timeMs,
    appHash: "",
    txs,
    gov,
    applied: undefined,
    skipped: undefined,
    committers: [],
  } as unknown as TraceEvent;
}
const opened = [
  block(
    2,
    T0,
    [submit()],
    [
      { kind: "submitted", id: 1n },
      { kind: "voting-started", id: 1n },
    ],
  ),
  block(3, T0 + 6000, [vote("val1", "yes"), vote("val2", "yes"), vote("val3", "yes")], []),
];
const checkGov = (s: Session) => checkProperty(s, govFollowsTally);
const check = (events: TraceEvent[]) => checkGov(sessionOf(events));

/**
 * The same session with a committed bank: the gov module account's balance, val1's (the proposer's; the other
 * validators keep their genesis balance) and the supply as the chain has them.
 */
function withBank(
  events: TraceEvent[],
  bank: { module: bigint; supply: bigint; val1?: bigint },
  finalTally: { yes: string; abstain: string; no: string; noWithVeto: string } = YES_300,
  records: { votes: number; deposits: number } = { votes: 0, deposits: 0 },
  failedReason = "proposal did not get enough votes to pass",
): Session {
  const s = sessionOf(events) as unknown as { sim: Record<string, unknown> };
  Object.assign(s.sim, {
    committed: () => ({ appHash: "H" }),
    height: 5,
    nodeNames: () => ["val1"],
    nodeState: () => ({}),
    nodeStatus: () => ({ height: 5 }),
    host: {
      lastAppHash: () => "H",
      readProposal: () => ({ finalTally, failedReason }),
      readProposalRecords: () => records,
      readBank: () => ({
        balances: new Map([
          [addressOfName("gov"), [{ denom: "stake", amount: bank.module }]],
          ...["val1", "val2", "val3", "val4"].map(
            (v) =>
              [
                addressOfName(v),
                [{ denom: "stake", amount: v === "val1" ? (bank.val1 ?? GENESIS_BALANCE) : GENESIS_BALANCE }],
              ] as const,
          ),
        ]),
        supply: [{ denom: "stake", amount: bank.supply }],
      }),
    },
  });
  return s as unknown as Session;
}
const GENESIS_BALANCE = 1_000_000_000_000n;
/** The final tally of three validators of power 100 voting yes. */
const YES_300 = { yes: "300", abstain: "0", no: "0", noWithVeto: "0" };
const EMPTY = { yes: "0", abstain: "0", no: "0", noWithVeto: "0" };
const VETOED = { yes: "100", abstain: "0", no: "0", noWithVeto: "200" };
const GENESIS_SUPPLY = 4n * GENESIS_BALANCE;

describe("gov-follows-tally", () => {
  it(`${govFollowsTally.statement} — holds for ${CI_RUNS} runs`, () => {
    const r = runProperty({ property: govFollowsTally, seed: CI_SEED, numRuns: CI_RUNS });
    expect(r.error).toBeUndefined();
    expect(r.counterexample?.violation).toBeUndefined();
    expect(r.passed).toBe(true);
  });

  it("holds when three of four validators vote yes and the proposal passes at its voting end", () => {
    expect(check([...opened, block(12, T0 + 60_000, [], [{ kind: "passed", id: 1n }])]).holds).toBe(true);
  });

  it("is violated when the block's results do not carry the decision's active_proposal event as the EndBlocker writes it", () => {
    const passed = [...opened, block(12, T0 + 60_000, [], [{ kind: "passed", id: 1n }])];
    const wrong = new Map([
      [
        12,
        [
          {
            type: "active_proposal",
            attributes: [
              { key: "proposal_id", value: "1" },
              { key: "proposal_result", value: "proposal_rejected" },
              { key: "proposal_log", value: "passed" },
            ],
          },
        ],
      ],
    ]);
    expect(checkGov(sessionOf(passed, wrong))).toEqual({
      holds: false,
      detail:
        'block 12: proposal 1 passed, so its active_proposal event must say proposal_result proposal_passed and proposal_log "passed"; the block\'s results have {"result":"proposal_rejected","log":"passed"}',
    });
    expect(checkGov(sessionOf(passed, new Map())).holds).toBe(false);
  });

  it("is violated when a rejected proposal does not store the reference's failed_reason", () => {
    const rejected = [
      opened[0]!,
      block(3, T0 + 6000, [vote("val1", "no"), vote("val2", "no"), vote("val3", "yes")], []),
      block(12, T0 + 60_000, [], [{ kind: "rejected", id: 1n }]),
    ];
    const refunded = { module: 0n, supply: GENESIS_SUPPLY };
    const tally = { yes: "100", abstain: "0", no: "200", noWithVeto: "0" };
    expect(checkGov(withBank(rejected, refunded, tally)).holds).toBe(true);
    expect(checkGov(withBank(rejected, refunded, tally, undefined, ""))).toEqual({
      holds: false,
      detail:
        'proposal 1 was rejected, but its failed_reason is "" instead of "proposal did not get enough votes to pass"',
    });
  });

  it("is violated when a chain rejects a proposal its votes pass", () => {
    const v = check([...opened, block(12, T0 + 60_000, [], [{ kind: "rejected", id: 1n }])]);
    expect(v).toEqual({
      holds: false,
      detail:
        "proposal 1 ended rejected in block 12, but the tally of its votes (val1:yes,val2:yes,val3:yes) says it should pass (passed)",
    });
  });

  it("is violated when a chain passes a vetoed proposal", () => {
    const vetoed = [
      opened[0]!,
      block(3, T0 + 6000, [vote("val1", "no_with_veto"), vote("val2", "no_with_veto"), vote("val3", "yes")], []),
      block(12, T0 + 60_000, [], [{ kind: "passed", id: 1n }]),
    ];
    expect(check(vetoed)).toMatchObject({
      holds: false,
      detail: expect.stringContaining("should be rejected (vetoed)"),
    });
  });

  it("is violated when the voting end passes without a decision, in a block or an idle stretch", () => {
    expect(check([...opened, block(12, T0 + 61_000, [], [])])).toMatchObject({
      holds: false,
      detail: expect.stringContaining("did not decide it"),
    });
    const idle = { kind: "blocks", from: 4, to: 20, timeFromMs: T0 + 12_000, timeToMs: T0 + 108_000, appHash: "" };
    expect(check([...opened, idle as TraceEvent])).toMatchObject({
      holds: false,
      detail: expect.stringContaining("blocks 4-20"),
    });
  });

  it("is violated when a proposal is decided before its voting end", () => {
    expect(check([...opened, block(5, T0 + 18_000, [], [{ kind: "passed", id: 1n }])])).toMatchObject({
      holds: false,
      detail: expect.stringContaining("before its voting end"),
    });
  });

  it("holds the deposits in the gov module account while open, and burns a vetoed proposal's from the supply", () => {
    const held = { module: 10_000_000n, supply: GENESIS_SUPPLY, val1: GENESIS_BALANCE - 10_000_000n };
    expect(checkGov(withBank(opened, held, EMPTY)).holds).toBe(true);
    const vetoed = [
      opened[0]!,
      block(3, T0 + 6000, [vote("val1", "no_with_veto"), vote("val2", "no_with_veto"), vote("val3", "yes")], []),
      block(12, T0 + 60_000, [], [{ kind: "rejected", id: 1n }]),
    ];
    const burned = { module: 0n, supply: GENESIS_SUPPLY - 10_000_000n, val1: GENESIS_BALANCE - 10_000_000n };
    expect(checkGov(withBank(vetoed, burned, VETOED)).holds).toBe(true);
    // A chain that refunds a vetoed proposal's deposit keeps the supply whole: burn_vote_veto is on by default.
    expect(checkGov(withBank(vetoed, { ...burned, supply: GENESIS_SUPPLY }, VETOED))).toMatchObject({
      holds: false,
      detail: `the stake supply is ${GENESIS_SUPPLY}, but genesis ${GENESIS_SUPPLY} less the 10000000 burned by decisions is ${GENESIS_SUPPLY - 10_000_000n}`,
    });
    // A chain that loses a passed proposal's refund leaves it in the module account.
    const passed = [...opened, block(12, T0 + 60_000, [], [{ kind: "passed", id: 1n }])];
    expect(checkGov(withBank(passed, held))).toMatchObject({
      holds: false,
      detail: expect.stringContaining(
        "the gov module account holds 10000000stake, but the open proposals' deposits are 0stake",
      ),
    });
  });

  it("lets an expedited proposal that misses the expedited threshold fall back, then decides it at the regular end", () => {
    const expedited = [
      block(
        2,
        T0,
        [submit(true)],
        [
          { kind: "submitted", id: 1n },
          { kind: "voting-started", id: 1n },
        ],
      ),
      block(3, T0 + 6000, [vote("val1", "yes"), vote("val2", "yes"), vote("val3", "no")], []),
      block(7, T0 + 30_000, [], [{ kind: "expedited-fallback", id: 1n }]),
      // The expedited votes were deleted at the fallback: without new votes the regular tally misses quorum.
      block(12, T0 + 60_000, [], [{ kind: "rejected", id: 1n }]),
    ];
    expect(check(expedited).holds).toBe(true);
    const passedAnyway = [...expedited.slice(0, 3), block(12, T0 + 60_000, [], [{ kind: "passed", id: 1n }])];
    expect(check(passedAnyway)).toMatchObject({ holds: false, detail: expect.stringContaining("no-quorum") });
  });

  it("is violated when a chain accepts a vote before voting started, or refuses a cancel by the proposer", () => {
    const partial = {
      ...submit(),
      tx: { ...(submit().tx as object), initialDeposit: [{ denom: "stake", amount: 1_000_000n }] } as unknown as SimTx,
    };
    const inDeposit = block(2, T0, [partial], [{ kind: "submitted", id: 1n }]);
    expect(check([inDeposit, block(3, T0 + 6000, [vote("val1", "yes")], [])])).toMatchObject({
      holds: false,
      detail: "block 3: a vote transaction succeeded, but the gov rules say it fails (1: inactive proposal)",
    });
    const cancel = { kind: "cancelProposal", proposalId: 1n, proposer: addressOfName("val1") } as SimTx;
    const refused = { tx: cancel, result: { ok: false, error: "proposal 1 not found" } };
    expect(check([inDeposit, block(3, T0 + 6000, [refused], [])])).toMatchObject({
      holds: false,
      detail: "block 3: a cancelProposal transaction failed (proposal 1 not found), but the gov rules say it succeeds",
    });
  });

  it("is violated when a chain accepts a deposit the reference refuses, or refuses it with another text", () => {
    const deposit = (amount: { denom: string; amount: bigint }[], result: { ok: boolean; error?: string }) => ({
      tx: { kind: "deposit", proposalId: 1n, depositor: addressOfName("val2"), amount } as SimTx,
      result,
    });
    const below = [{ denom: "stake", amount: 99_999n }];
    const text =
      "received 99999stake but need at least one of the following: 100000stake: minimum deposit is too small";
    const at = (tx: ReturnType<typeof deposit>) => check([opened[0]!, block(3, T0 + 6000, [tx], [])]);
    expect(at(deposit(below, { ok: false, error: text })).holds).toBe(true);
    expect(at(deposit(below, ok))).toMatchObject({
      holds: false,
      detail: `block 3: a deposit transaction succeeded, but the gov rules say it fails (${text})`,
    });
    expect(at(deposit([], ok))).toMatchObject({
      detail: "block 3: a deposit transaction succeeded, but the gov rules say it fails (: invalid coins)",
    });
    const over = [{ denom: "stake", amount: GENESIS_BALANCE + 1n }];
    expect(at(deposit(over, { ok: false, error: "insufficient funds" }))).toMatchObject({
      holds: false,
      detail: `block 3: a deposit transaction failed with "insufficient funds", but the gov rules say "spendable balance ${GENESIS_BALANCE}stake is smaller than ${GENESIS_BALANCE + 1n}stake: insufficient funds"`,
    });
  });

  it("is violated when a chain keeps a proposal whose deposit period ended short of the minimum", () => {
    const partial = {
      ...submit(),
      tx: { ...(submit().tx as object), initialDeposit: [{ denom: "stake", amount: 1_000_000n }] } as unknown as SimTx,
    };
    // The default max_deposit_period (48h): the first block at or past it must drop the proposal.
    const dueMs = T0 + 48 * 3_600_000;
    const events = [block(2, T0, [partial], [{ kind: "submitted", id: 1n }])];
    expect(check([...events, block(30_000, dueMs, [], [{ kind: "dropped", id: 1n }])]).holds).toBe(true);
    expect(check([...events, block(30_000, dueMs, [], [])])).toMatchObject({
      holds: false,
      detail: "block 30000: the gov rules say proposal 1 is dropped, but the chain did not report it",
    });
  });

  it("is violated when a refund reaches the module account's books but not the depositor", () => {
    const passed = [...opened, block(12, T0 + 60_000, [], [{ kind: "passed", id: 1n }])];
    const lost = { module: 0n, supply: GENESIS_SUPPLY, val1: GENESIS_BALANCE - 10_000_000n };
    expect(checkGov(withBank(passed, lost))).toMatchObject({
      holds: false,
      detail: `val1 holds ${GENESIS_BALANCE - 10_000_000n}stake, but its genesis ${GENESIS_BALANCE} less its 0 in open deposits and its 0 burned or withheld is ${GENESIS_BALANCE} (a refund went to the wrong account or was lost)`,
    });
  });

  it("is violated when an open proposal stores a final tally other than the empty one", () => {
    const held = { module: 10_000_000n, supply: GENESIS_SUPPLY, val1: GENESIS_BALANCE - 10_000_000n };
    expect(checkGov(withBank(opened, held, { ...EMPTY, abstain: "" }))).toMatchObject({
      holds: false,
      detail: `proposal 1 is open, but its final_tally_result is {"yes":"0","abstain":"","no":"0","noWithVeto":"0"} instead of the empty tally {"yes":"0","abstain":"0","no":"0","noWithVeto":"0"}`,
    });
  });

  it("is violated when a decided proposal leaves its votes or deposits in the store", () => {
    const passed = [...opened, block(12, T0 + 60_000, [], [{ kind: "passed", id: 1n }])];
    const refunded = { module: 0n, supply: GENESIS_SUPPLY };
    expect(checkGov(withBank(passed, refunded, YES_300, { votes: 3, deposits: 0 }))).toMatchObject({
      holds: false,
      detail:
        "proposal 1 keeps 3 votes and 0 deposits in the store after it was closed (its votes and deposits must be deleted)",
    });
    expect(checkGov(withBank(passed, refunded, YES_300, { votes: 0, deposits: 1 })).holds).toBe(false);
  });

  it("is violated when a decided proposal stores a final tally other than the votes that executed", () => {
    const passed = [...opened, block(12, T0 + 60_000, [], [{ kind: "passed", id: 1n }])];
    const refunded = { module: 0n, supply: GENESIS_SUPPLY };
    expect(checkGov(withBank(passed, refunded)).holds).toBe(true);
    expect(checkGov(withBank(passed, refunded, { ...YES_300, yes: "200" }))).toMatchObject({
      holds: false,
      detail: `proposal 1's final_tally_result is {"yes":"200","abstain":"0","no":"0","noWithVeto":"0"}, but the votes that executed count {"yes":"300","abstain":"0","no":"0","noWithVeto":"0"}`,
    });
  });
});
