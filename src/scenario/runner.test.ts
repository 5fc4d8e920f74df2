import { describe, expect, it } from "vitest";
import { RUN_BLOCKS_MAX } from "../chain/records.js";
import { failureText } from "./failure.js";
import { parseScenario } from "./load.js";
import { runScenario } from "./runner.js";

const load = (doc: object) => {
  const r = parseScenario("r.json", JSON.stringify({ name: "r", binaries: { v1: {} }, ...doc }));
  if (!r.ok) throw new Error(r.error.map((e) => `${e.path}: ${e.message}`).join("\n"));
  return r.value;
};

describe("a run's block limit", () => {
  it("stops a run whose target lies beyond the limit, and says why instead of running out of memory", () => {
    // 2,000,000 hours of 6 s blocks would be 1.2 billion blocks.
    const { report } = runScenario(load({ chain: { blockTime: "6s" }, run: { untilTime: "+2000000h" } }));
    expect(report.final.height).toBe(RUN_BLOCKS_MAX);
    expect(report.failures.map(failureText)).toEqual([
      `run: expected "time 2254-02-28T08:00:00Z", got "stopped at height ${RUN_BLOCKS_MAX}: a run commits at most ${RUN_BLOCKS_MAX} blocks"`,
    ]);
  });

  it("is no failure when the file asked for exactly that many blocks", () => {
    const { report } = runScenario(load({ run: { maxBlocks: 20 } }));
    expect(report.failures).toEqual([]);
    expect(report.final.height).toBe(20);
  });
});
