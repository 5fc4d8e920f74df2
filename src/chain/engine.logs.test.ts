import { describe, expect, it } from "vitest";
import {
  ALL_SIDECARS_10M,
  at,
  proposeAndPass,
  schedule,
  steps,
  swap,
  testChain,
  UPGRADE_BASE,
} from "../../test/kit/chain.js";
import type { LogLine } from "../core/context.js";
import { ChainEngine, type EngineOptions } from "./engine.js";

/**
 * Log lines: the engine keeps each committed block's lines (`blockLogs`) and each halted node's final lines (its
 * HaltRecord's `logs`); neither reaches the trace. Execution sharing, the fast path and snapshots leave them as a
 * plain execution would.
 */
const PLAN = 300;
const NEEDED: LogLine = { level: "error", module: "x/upgrade", message: `UPGRADE "v2" NEEDED at height: ${PLAN}: ` };
const APPLYING: LogLine = { level: "info", module: "x/upgrade", message: `applying upgrade "v2" at height: ${PLAN}` };

/** Plan v2 at PLAN by governance; every validator's sidecar swaps to v2 after its halt. */
const upgradeChain = (engine: EngineOptions = {}) =>
  testChain({ ...UPGRADE_BASE, nodes: ALL_SIDECARS_10M, steps: proposeAndPass(PLAN), engine });

const logsOf = (e: ReturnType<typeof upgradeChain>) => ({
  blocks: [...e.blockLogs],
  halts: e.halts.map((h) => ({ node: h.node, height: h.height, logs: h.logs })),
});

describe("log lines of committed blocks and halts", () => {
  it("keeps the halt path's error line with each halt, and the upgrade block's info line with the block", () => {
    const e = upgradeChain();
    e.run({ settle: true });
    expect(e.halts.map((h) => [h.node, h.height, h.logs])).toEqual(
      ["val1", "val2", "val3", "val4"].map((n) => [n, PLAN, [NEEDED]]),
    );
    // the gov EndBlocker's tally line in the block that ended the vote; the PreBlocker's line, then the migrations'
    expect([...e.blockLogs]).toEqual([
      [
        102,
        [
          {
            level: "info",
            module: "x/gov",
            message:
              "proposal tallied proposal=1 status=PROPOSAL_STATUS_PASSED expedited=false title=v2 results=passed",
          },
        ],
      ],
      [
        PLAN,
        [
          APPLYING,
          { level: "info", module: "baseapp", message: "adding a new module: foo" },
          { level: "info", module: "baseapp", message: "migrating module upgrade from version 1 to version 2" },
        ],
      ],
    ]);
  });

  it("keeps a binary-too-early halt's error line", () => {
    const e = testChain({ ...UPGRADE_BASE, steps: steps([at(2), schedule(PLAN)], [at(10), swap("val1", "v2early")]) });
    e.run({ untilHeight: 15 });
    expect(e.halts.map((h) => [h.node, h.height, h.kind, h.logs])).toEqual([
      [
        "val1",
        10,
        "binary-too-early",
        [
          {
            level: "error",
            module: "x/upgrade",
            message:
              'BINARY UPDATED BEFORE TRIGGER! UPGRADE "v2" - in binary but not executed on chain. Downgrade your binary',
          },
        ],
      ],
    ]);
  });

  it("a skip height keeps the SKIPPED info line with the committed block", () => {
    const skip = { skipUpgradeHeights: [PLAN] };
    const e = testChain({
      ...UPGRADE_BASE,
      nodes: { val1: skip, val2: skip, val3: skip, val4: skip },
      steps: steps([at(2), schedule(PLAN)]),
    });
    e.run({ untilHeight: PLAN + 2 });
    expect(e.halts).toEqual([]);
    expect(e.blockLogs.get(PLAN)).toEqual([
      { level: "info", module: "x/upgrade", message: `UPGRADE "v2" SKIPPED at ${PLAN}: ` },
    ]);
  });

  it("execution sharing, the fast path and the stall shortcut report the lines a plain execution writes", () => {
    const reference = upgradeChain({ noSharedExecution: true, noFastPath: true, noStallShortcut: true });
    reference.run({ settle: true });
    const fast = upgradeChain();
    fast.run({ settle: true });
    expect(fast.traceHash()).toBe(reference.traceHash());
    expect(logsOf(fast)).toEqual(logsOf(reference));
  });

  it("snapshots carry the lines: a fork continues with the same lines as the original, independently", () => {
    const original = upgradeChain();
    original.run({ untilHeight: PLAN - 1 });
    original.run({ untilTimeMs: original.nowMs + 7000 });
    expect(original.halts).toHaveLength(4);
    const snap = original.snapshot();
    const fork = ChainEngine.fromSnapshot(original.host, snap);
    const clone = ChainEngine.fromSnapshot(original.host, structuredClone(snap));
    expect(logsOf(fork)).toEqual(logsOf(original));
    for (const e of [original, fork, clone]) e.run({ settle: true });
    expect(logsOf(fork)).toEqual(logsOf(original));
    expect(logsOf(clone)).toEqual(logsOf(original));
    expect(original.blockLogs.get(PLAN)?.[0]).toEqual(APPLYING);
    // independent: a fork taken before the upgrade block does not see the original's later lines
    const early = ChainEngine.fromSnapshot(original.host, snap);
    expect(early.blockLogs.has(PLAN)).toBe(false);
  });
});
