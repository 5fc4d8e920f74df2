import { describe, expect, it } from "vitest";
import { decideCommit, type NodeExecution } from "./consensus.js";

const ok = (node: string, power: number, appHash: string): NodeExecution => ({ node, power, ok: true, appHash });
const failed = (node: string, power: number): NodeExecution => ({ node, power, ok: false });

describe("decideCommit (docs/scenario-format.md §1 consensus rule)", () => {
  it("does not commit with exactly 2/3 of the total power", () => {
    const d = decideCommit([ok("a", 100, "h"), ok("b", 100, "h"), failed("c", 100)], 300);
    expect(d).toEqual({ commit: false });
  });

  it("commits with more than 2/3 of the total power", () => {
    const d = decideCommit([ok("a", 100, "h"), ok("b", 100, "h"), ok("c", 1, "h")], 301);
    expect(d).toEqual({ commit: true, appHash: "h", committers: ["a", "b", "c"], mismatched: [] });
  });

  it("counts the power of absent validators in the total", () => {
    // 3 of 4 running and agreeing: 300 > 2/3 × 400.
    expect(decideCommit([ok("a", 100, "h"), ok("b", 100, "h"), ok("c", 100, "h")], 400).commit).toBe(true);
    // 2 of 4 running: 200 ≤ 2/3 × 400, even though they are all the running power.
    expect(decideCommit([ok("a", 100, "h"), ok("b", 100, "h")], 400).commit).toBe(false);
  });

  it("does not add up the power of different app hashes", () => {
    const d = decideCommit([ok("a", 100, "x"), ok("b", 100, "x"), ok("c", 100, "y"), ok("d", 100, "y")], 400);
    expect(d.commit).toBe(false);
  });

  it("lets full nodes with power 0 follow the winning hash", () => {
    const d = decideCommit([ok("full", 0, "h"), ok("a", 100, "h"), ok("b", 100, "h"), ok("c", 100, "h")], 300);
    expect(d).toEqual({ commit: true, appHash: "h", committers: ["full", "a", "b", "c"], mismatched: [] });
  });

  it("full nodes alone never commit", () => {
    expect(decideCommit([ok("f1", 0, "h"), ok("f2", 0, "h")], 100).commit).toBe(false);
  });

  it("reports nodes (validators or full nodes) that reached another hash as mismatched", () => {
    const d = decideCommit(
      [ok("a", 100, "h"), ok("b", 100, "other"), ok("c", 100, "h"), ok("d", 100, "h"), ok("full", 0, "other")],
      400,
    );
    expect(d).toEqual({ commit: true, appHash: "h", committers: ["a", "c", "d"], mismatched: ["b", "full"] });
  });

  it("never reports failed executions as committers or mismatched", () => {
    const d = decideCommit([ok("a", 100, "h"), ok("b", 100, "h"), ok("c", 100, "h"), failed("d", 100)], 400);
    expect(d).toEqual({ commit: true, appHash: "h", committers: ["a", "b", "c"], mismatched: [] });
  });

  it("commits nothing with no executions", () => {
    expect(decideCommit([], 400)).toEqual({ commit: false });
  });
});
