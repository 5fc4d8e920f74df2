import { describe, expect, it } from "vitest";
import { durationMs } from "../core/brand.js";
import { trialScenario } from "./chain.js";
import { type CancelWindowConfig, DEFAULT_CONFIG } from "./model.js";
import { landingOffset, runTrial, type TrialInput } from "./trial.js";

const MIN = 60_000;
const HOUR = 60 * MIN;

/** D = V = 1h, S = 30m, expedited 30m, fixed 6s blocks: D and V are 600 blocks, S 300, the expedited period 300. */
const SMALL: CancelWindowConfig = {
  ...DEFAULT_CONFIG,
  depositPeriodMs: HOUR,
  votingPeriodMs: HOUR,
  expeditedVotingPeriodMs: 30 * MIN,
  safetyDeltaMs: 30 * MIN,
  blockTime: { kind: "fixed", intervalMs: durationMs(6000) },
};

function trial(cfg: CancelWindowConfig, input: Partial<TrialInput> & { offset: number }) {
  const chain = trialScenario(cfg);
  if (!chain.ok) throw new Error(chain.error);
  return runTrial(chain.value, cfg, { seed: 1, depositDelayMs: HOUR, cancelDepositDelayMs: HOUR, ...input });
}

describe("cancel-window trial, fixed 6s blocks (boundaries computed by hand)", () => {
  // Block h has time 6h s. Upgrade submitted in block 2 (t = 12s); deposit + votes at 12s + 1h → block 602, voting
  // ends 1h later → executed in block 1202. Cancel at t(1202) + 30m → block 1502; its deposit 1h later → block 2102;
  // its voting ends in block 2702 = h0 + 2700 blocks = h0 + (2(D + V) + S) / 6s. The cancel executes in the
  // EndBlocker of 2702, but a plan at 2702 is due in the PreBlocker of 2702: the last offset that lands is 2701,
  // one block more than the rule of thumb converted exactly.
  it("after-pass: lands with the plan at h0 + 2701, too late at h0 + 2700", () => {
    const lands = trial(SMALL, { offset: 2701 });
    expect(lands).toMatchObject({ outcome: "landed", upgradeHeight: 1202, cancelHeight: 2702, haltHeight: null });
    const late = trial(SMALL, { offset: 2700 });
    expect(late).toMatchObject({ outcome: "too-late", upgradeHeight: 1202, cancelHeight: null, haltHeight: 2702 });
    expect(late.finalHeight).toBe(2701);
    expect(landingOffset(lands, SMALL.submitHeight)).toBe(2701);
    expect(landingOffset(late, SMALL.submitHeight)).toBe(Number.POSITIVE_INFINITY);
  });

  it("after-pass with immediate deposits: both deposit periods drop out (V + S + V + 1 = 1501)", () => {
    // Submission with the full deposit: voting 2 → 602; cancel at 602 + 300 = 902, voting to 1502.
    const r = trial(SMALL, { offset: 10_000, depositDelayMs: 0, cancelDepositDelayMs: 0 });
    expect(r).toMatchObject({ outcome: "landed", upgradeHeight: 602, cancelHeight: 1502 });
    expect(landingOffset(r, 2)).toBe(1501);
    expect(trial(SMALL, { offset: 1501, depositDelayMs: 0, cancelDepositDelayMs: 0 }).outcome).toBe("landed");
    expect(trial(SMALL, { offset: 1500, depositDelayMs: 0, cancelDepositDelayMs: 0 }).outcome).toBe("too-late");
  });

  it("after-pass, expedited cancel: its voting period is 30m (300 blocks)", () => {
    const cfg = { ...SMALL, expedited: true };
    const r = trial(cfg, { offset: 10_000 });
    expect(r).toMatchObject({ outcome: "landed", upgradeHeight: 1202, cancelHeight: 2402 });
    expect(landingOffset(r, 2)).toBe(2401);
  });

  it("during-voting: the cancel lands in block 603, its voting ends in 1803 (after the upgrade's 1202)", () => {
    const cfg = { ...SMALL, strategy: "during-voting" as const };
    const r = trial(cfg, { offset: 10_000 });
    expect(r).toMatchObject({ outcome: "landed", upgradeHeight: 1202, cancelHeight: 1803 });
    expect(landingOffset(r, 2)).toBe(1802);
    expect(trial(cfg, { offset: 1802 }).outcome).toBe("landed");
    expect(trial(cfg, { offset: 1801 }).outcome).toBe("too-late");
  });

  it("during-voting, expedited cancel ending first: it executes as a no-op and the upgrade stands", () => {
    // Cancel submitted in 603 with its full deposit: expedited voting 603 → 903, before the upgrade's 1202.
    const cfg = { ...SMALL, strategy: "during-voting" as const, expedited: true };
    const r = trial(cfg, { offset: 10_000, cancelDepositDelayMs: 0 });
    expect(r).toMatchObject({ outcome: "cancel-before-upgrade", upgradeHeight: 1202, cancelHeight: 903 });
    expect(landingOffset(r, 2)).toBe(Number.POSITIVE_INFINITY);
  });

  it("during-voting, same end time: the upgrade (lower id) runs first, so a plan at the execution height lands", () => {
    // Cancel deposit at t(603) + 30m − 6s → block 902; expedited voting ends at t(1202), as the upgrade's.
    const cfg = { ...SMALL, strategy: "during-voting" as const, expedited: true };
    const delay = { cancelDepositDelayMs: 30 * MIN - 6000 };
    const r = trial(cfg, { offset: 10_000, ...delay });
    expect(r).toMatchObject({ outcome: "landed", upgradeHeight: 1202, cancelHeight: 1202 });
    // Plan at 1202 = the execution height: stored and cleared in one EndBlocker (docs/fidelity.md §3.10: equal allowed).
    expect(landingOffset(r, 2)).toBe(1200);
    expect(trial(cfg, { offset: 1200, ...delay }).outcome).toBe("landed");
    expect(trial(cfg, { offset: 1199, ...delay }).outcome).toBe("plan-in-past");
  });

  it("a plan below the upgrade's execution height fails the upgrade as scheduled in the past", () => {
    const r = trial(SMALL, { offset: 500 });
    expect(r.outcome).toBe("plan-in-past");
    expect(r.detail).toContain("upgrade cannot be scheduled in the past");
  });
});

describe("landing offset = the exact boundary of direct trials (random block times)", () => {
  const cfg: CancelWindowConfig = {
    ...SMALL,
    blockTime: { kind: "uniform", minMs: durationMs(4000), maxMs: durationMs(8000) },
  };
  for (const strategy of ["after-pass", "during-voting"] as const) {
    it(`${strategy}: a probe far out predicts the trials one block either side`, () => {
      const c = { ...cfg, strategy };
      for (const seed of [3, 17, 99]) {
        const input = { seed, depositDelayMs: 20 * MIN + seed * 1000, cancelDepositDelayMs: 45 * MIN - seed * 1000 };
        const probe = trial(c, { ...input, offset: 20_000 });
        const l = landingOffset(probe, c.submitHeight);
        expect(Number.isFinite(l)).toBe(true);
        expect(trial(c, { ...input, offset: l }).outcome).toBe("landed");
        expect(trial(c, { ...input, offset: l - 1 }).outcome).not.toBe("landed");
        expect(trial(c, { ...input, offset: l + 7 }).outcome).toBe("landed");
      }
    });
  }
});

describe("one validator gives the results of four (the trial chain drops only repeated executions)", () => {
  const FOUR = ["val1", "val2", "val3", "val4"];
  const random: CancelWindowConfig = {
    ...SMALL,
    blockTime: { kind: "uniform", minMs: durationMs(4000), maxMs: durationMs(8000) },
  };
  const cases: [string, CancelWindowConfig, Partial<TrialInput> & { offset: number }][] = [
    ["after-pass, lands", SMALL, { offset: 2701 }],
    ["after-pass, too late", SMALL, { offset: 2700 }],
    ["after-pass, plan in the past", SMALL, { offset: 500 }],
    [
      "during-voting, expedited, cancel first",
      { ...SMALL, strategy: "during-voting", expedited: true },
      { offset: 10_000, cancelDepositDelayMs: 0 },
    ],
    [
      "during-voting, same end time",
      { ...SMALL, strategy: "during-voting", expedited: true },
      { offset: 1200, cancelDepositDelayMs: 30 * MIN - 6000 },
    ],
  ];
  for (const seed of [3, 17, 99])
    for (const strategy of ["after-pass", "during-voting"] as const)
      cases.push([
        `${strategy}, random blocks, seed ${seed}`,
        { ...random, strategy },
        { seed, offset: 20_000, depositDelayMs: 20 * MIN + seed * 1000, cancelDepositDelayMs: 45 * MIN - seed * 1000 },
      ]);
  it.each(cases)("%s", (_, cfg, input) => {
    const run = (validators?: readonly string[]) => {
      const chain = trialScenario(cfg, validators);
      if (!chain.ok) throw new Error(chain.error);
      return runTrial(chain.value, cfg, { seed: 1, depositDelayMs: HOUR, cancelDepositDelayMs: HOUR, ...input });
    };
    const one = run();
    expect(one).toEqual(run(FOUR));
  });
});
