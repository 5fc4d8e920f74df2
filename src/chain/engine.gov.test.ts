import { describe, expect, it } from "vitest";
import { binary, testChain } from "../../test/kit/chain.js";
import type { UpgradeMessage, VoteOptionName } from "../app/types.js";
import { govAuthority } from "../core/address.js";
import { durationMs } from "../core/brand.js";
import type { Action, Step } from "./actions.js";

/** Deposit and voting periods of 1 h with 6 s blocks: a proposal submitted at block h ends near block h + 600. */
const HOUR_MS = 3_600_000;
const MIN_DEPOSIT = 10_000_000n;
const EXPEDITED_MIN_DEPOSIT = 50_000_000n;
const BINARIES = [binary("v1"), binary("v2", { v2: { handler: "noop" } })];

const upgrade = (name: string, height: number): UpgradeMessage => ({
  kind: "softwareUpgrade",
  authority: govAuthority(),
  plan: { name, height: BigInt(height), info: "" },
});
const cancel: UpgradeMessage = { kind: "cancelUpgrade", authority: govAuthority() };
const submit = (id: string, msg: UpgradeMessage, deposit = MIN_DEPOSIT, expedited = false): Action => ({
  kind: "submitProposal",
  id,
  proposer: "val1",
  title: id,
  summary: id,
  metadata: "",
  deposit: [{ denom: "stake", amount: deposit }],
  expedited,
  messages: [msg],
});
const vote = (proposal: string, voters: Record<string, VoteOptionName>): Action => ({
  kind: "vote",
  proposal,
  votes: new Map(Object.entries(voters)),
});
const yes3 = { val1: "yes", val2: "yes", val3: "yes" } as const;
const atHeights = (...list: [number, Action][]): Step[] =>
  list.map(([height, action], index) => ({ index, trigger: { kind: "height", height }, action }));
const chain = (...list: [number, Action][]) => chainWith({}, ...list);
const chainWith = (nodes: Parameters<typeof testChain>[0]["nodes"] & object, ...list: [number, Action][]) =>
  testChain({
    nodes,
    binaries: BINARIES,
    votingPeriodMs: HOUR_MS,
    depositPeriodMs: HOUR_MS,
    engine: { keepTrace: true },
    steps: atHeights(...list),
  });

describe("governance carrying upgrade messages", () => {
  it("a cancel proposal passing before the plan height clears the plan", () => {
    const e = chain(
      [2, submit("up", upgrade("v2", 2000))],
      [3, vote("up", yes3)],
      [700, submit("cancel", cancel)],
      [701, vote("cancel", yes3)],
    );
    e.run({ untilHeight: 1000 });
    expect(e.proposalByLabel("up")?.status).toBe("passed");
    expect(e.committed()?.plan).toEqual({ name: "v2", height: 2000, info: "" });
    e.run({ untilHeight: 2100 });
    expect(e.proposalByLabel("cancel")?.status).toBe("passed");
    expect(e.committed()?.plan).toBeNull();
    expect(e.height).toBe(2100);
    expect(e.halts).toEqual([]);
    expect(e.handlerRuns.size).toBe(0);
  });

  it("a cancel submitted during the upgrade's voting and ending later wins", () => {
    const e = chain(
      [2, submit("up", upgrade("v2", 2000))],
      [3, vote("up", yes3)],
      [10, submit("cancel", cancel)],
      [11, vote("cancel", yes3)],
    );
    e.run({ untilHeight: 1000 });
    expect(e.proposalByLabel("up")?.status).toBe("passed");
    expect(e.proposalByLabel("cancel")?.status).toBe("passed");
    expect(e.proposalByLabel("cancel")!.votingEndTimeMs!).toBeGreaterThan(e.proposalByLabel("up")!.votingEndTimeMs!);
    expect(e.committed()?.plan).toBeNull();
  });

  it("a cancel whose voting ends earlier is a no-op and the upgrade stands", () => {
    const e = chain(
      [2, submit("up", upgrade("v2", 2000), 1_000_000n)],
      [5, submit("cancel", cancel)],
      [6, vote("cancel", yes3)],
      [10, { kind: "deposit", proposal: "up", from: "val2", amount: [{ denom: "stake", amount: MIN_DEPOSIT }] }],
      [11, vote("up", yes3)],
    );
    e.run({ untilHeight: 1000 });
    const up = e.proposalByLabel("up")!;
    const c = e.proposalByLabel("cancel")!;
    expect(c.id).toBeGreaterThan(up.id);
    expect(c.votingEndTimeMs!).toBeLessThan(up.votingEndTimeMs!);
    expect([up.status, c.status]).toEqual(["passed", "passed"]);
    expect(e.committed()?.plan).toEqual({ name: "v2", height: 2000, info: "" });
  });

  it("with equal voting end times the lower proposal id executes first", () => {
    const upFirst = chain(
      [2, submit("up", upgrade("v2", 2000))],
      [2, submit("cancel", cancel)],
      [3, vote("up", yes3)],
      [3, vote("cancel", yes3)],
    );
    upFirst.run({ untilHeight: 1000 });
    expect(upFirst.proposalByLabel("up")!.votingEndTimeMs).toBe(upFirst.proposalByLabel("cancel")!.votingEndTimeMs);
    expect(upFirst.committed()?.plan).toBeNull();

    const cancelFirst = chain(
      [2, submit("cancel", cancel)],
      [2, submit("up", upgrade("v2", 2000))],
      [3, vote("up", yes3)],
      [3, vote("cancel", yes3)],
    );
    cancelFirst.run({ untilHeight: 1000 });
    expect(cancelFirst.committed()?.plan).toEqual({ name: "v2", height: 2000, info: "" });
  });

  it("a plan whose height has passed when voting ends fails the proposal", () => {
    const e = chain([2, submit("up", upgrade("v2", 100))], [3, vote("up", yes3)]);
    e.run({ settle: true });
    const up = e.proposalByLabel("up")!;
    expect(up.status).toBe("failed");
    expect(up.failedReason).toBe("upgrade cannot be scheduled in the past: invalid request");
    expect(e.committed()?.plan).toBeNull();
    expect(e.halts).toEqual([]);
  });

  it("a completed plan name cannot be scheduled again", () => {
    const sidecar = { enabled: true, delayMs: durationMs(60_000), binaries: new Map<string, string>() };
    const e = chainWith(
      Object.fromEntries(["val1", "val2", "val3", "val4"].map((n) => [n, { sidecar }])),
      [2, { kind: "authorityExec", messages: [upgrade("v2", 20)] }],
      [30, { kind: "authorityExec", messages: [upgrade("v2", 100)] }],
      [31, submit("again", upgrade("v2", 2000))],
      [32, vote("again", yes3)],
    );
    e.run({ settle: true });
    expect([...e.handlerRuns]).toEqual([["v2", 1]]);
    const exec = e.stepResults().find((r) => r.index === 1)!;
    expect(exec).toMatchObject({
      ok: false,
      error: "upgrade with name v2 has already been completed: invalid request",
    });
    const again = e.proposalByLabel("again")!;
    expect(again.status).toBe("failed");
    expect(again.failedReason).toBe("upgrade with name v2 has already been completed: invalid request");
    expect(e.committed()?.plan).toBeNull();
  });

  it("an expedited proposal below the expedited threshold falls back to a regular vote, its votes deleted", () => {
    const e = chain(
      [2, submit("up", upgrade("v2", 2000), EXPEDITED_MIN_DEPOSIT, true)],
      [3, vote("up", { val1: "yes", val2: "yes", val3: "no" })],
    );
    e.run({ untilHeight: 400 });
    const mid = e.proposalByLabel("up")!;
    expect(mid.status).toBe("voting_period");
    expect(mid.votingEndTimeMs! - mid.votingStartTimeMs!).toBe(HOUR_MS);
    const fallback = e
      .traceLines()
      .filter((l) => l.includes('"expedited-fallback"'))
      .map((l) => JSON.parse(l).height as number);
    expect(fallback).toEqual([302]);
    expect(e.blocks.timeMs(302)! - mid.votingStartTimeMs!).toBe(HOUR_MS / 2);
    // The reference tally deleted the expedited votes (docs/fidelity.md §3.6): nobody voted in the regular period.
    e.run({ untilHeight: 1000 });
    expect(e.proposalByLabel("up")?.status).toBe("rejected");
    expect(e.committed()?.plan).toBeNull();
  });

  it("an expedited proposal that fell back passes the regular threshold with votes cast after the fallback", () => {
    const e = chain(
      [2, submit("up", upgrade("v2", 2000), EXPEDITED_MIN_DEPOSIT, true)],
      [3, vote("up", { val1: "yes", val2: "yes", val3: "no" })],
      [310, vote("up", { val1: "yes", val2: "yes", val3: "no" })],
    );
    e.run({ untilHeight: 1000 });
    expect(e.proposalByLabel("up")?.status).toBe("passed");
    expect(e.committed()?.plan).toEqual({ name: "v2", height: 2000, info: "" });
  });

  it("an expedited proposal above the expedited threshold passes after the expedited period", () => {
    const e = chain([2, submit("up", upgrade("v2", 2000), EXPEDITED_MIN_DEPOSIT, true)], [3, vote("up", yes3)]);
    e.run({ untilHeight: 400 });
    expect(e.proposalByLabel("up")?.status).toBe("passed");
    expect(e.committed()?.plan).toEqual({ name: "v2", height: 2000, info: "" });
  });

  it("a proposal that never reaches the minimum deposit is dropped", () => {
    const e = chain([2, submit("up", upgrade("v2", 2000), 1_000_000n)]);
    e.run({ untilHeight: 599 });
    expect(e.proposalByLabel("up")?.status).toBe("deposit_period");
    e.run({ settle: true });
    expect(e.proposalByLabel("up")?.status).toBe("dropped");
    expect(e.committed()?.plan).toBeNull();
  });

  it("a proposal that misses the quorum is rejected", () => {
    const e = chain([2, submit("up", upgrade("v2", 2000))], [3, vote("up", { val1: "yes" })]);
    e.run({ settle: true });
    expect(e.proposalByLabel("up")?.status).toBe("rejected");
    expect(e.committed()?.plan).toBeNull();
    expect(e.halts).toEqual([]);
  });

  it("a proposal withdrawn by its proposer is cancelled and schedules nothing", () => {
    const e = chain(
      [2, submit("up", upgrade("v2", 2000))],
      [3, vote("up", yes3)],
      [10, { kind: "cancelProposal", proposal: "up", from: "val1" }],
    );
    e.run({ settle: true });
    expect(e.proposalByLabel("up")?.status).toBe("cancelled");
    expect(e.committed()?.plan).toBeNull();
    expect(e.stepResults().every((r) => r.ok)).toBe(true);
  });
});
