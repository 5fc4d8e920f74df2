import { describe, expect, it } from "vitest";
import { addressOfName } from "../core/address.js";
import { failureText } from "./failure.js";
import { parseScenario } from "./load.js";
import { jsonEqual } from "./query-step.js";
import { runScenario } from "./runner.js";

const scenario = (steps: unknown[], extra: object = {}) => {
  const r = parseScenario("q.json", JSON.stringify({ name: "q", binaries: { v1: {} }, steps, ...extra }));
  if (!r.ok) throw new Error(r.error.map((e) => `${e.path}: ${e.message}`).join("\n"));
  return r.value;
};

const PLAN = "/chain/upgrade/v1beta1/current_plan";
const schedule = { at: 2, authorityExec: { messages: [{ softwareUpgrade: { name: "v2", height: 100 } }] } };

describe("query steps", () => {
  it("pass when status and body match, with the state at the step's point and height", () => {
    const s = scenario([
      schedule,
      { at: 4, query: { path: PLAN, height: 1, expect: { status: 200, body: { plan: null } } } },
      {
        at: 4,
        query: {
          path: PLAN,
          expect: {
            status: 200,
            body: {
              plan: { upgraded_client_state: null, info: "", height: "100", time: "0001-01-01T00:00:00Z", name: "v2" },
            },
          },
        },
      },
      { at: 4, query: { path: `${PLAN}x`, expect: { status: 501 } } },
    ]);
    const { report } = runScenario(s);
    expect(report.failures.map(failureText)).toEqual([]);
    expect(report.steps.filter((x) => x.action === "check").map((x) => x.ok)).toEqual([true, true, true]);
  });

  it("fail the scenario with the status and body the node answered", () => {
    const s = scenario([
      schedule,
      { at: 3, label: "wrong", query: { path: PLAN, height: 9, expect: { status: 200, body: { plan: null } } } },
      { at: 3, query: { node: "val1", path: PLAN, height: 1, expect: { status: 200, body: { plan: {} } } } },
    ]);
    const { report } = runScenario(s);
    expect(report.passed).toBe(false);
    expect(report.failures).toEqual([
      {
        at: "steps[1].query",
        expected: { status: 200, body: { plan: null } },
        actual: {
          status: 500,
          body: {
            code: 2,
            message:
              "codespace sdk code 26: invalid height: cannot query with height in the future; please provide a valid height",
            details: [],
          },
        },
      },
      {
        at: "steps[2].query",
        expected: { status: 200, body: { plan: {} } },
        actual: { status: 200, body: { plan: null } },
      },
    ]);
    expect(report.steps.find((x) => x.label === "wrong")?.ok).toBe(false);
  });

  it("compare bodies as JSON: key order ignored, array order and types kept", () => {
    expect(jsonEqual({ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(jsonEqual({ a: "1" }, { a: 1 })).toBe(false);
    expect(jsonEqual({ a: null }, {})).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });
});

describe("gov not-found answers over REST, as the reference v0.50 query server and its gateway give them", () => {
  const val2 = addressOfName("val2");
  const proposal = {
    at: 2,
    submitProposal: { id: "p", proposer: "val1", messages: [{ softwareUpgrade: { name: "v2", height: 900 } }] },
  };
  const query = (path: string, status: number, body: unknown) => ({ at: 4, query: { path, expect: { status, body } } });

  it("a vote that was not cast is 400 code 3; a deposit that was not made is 404 code 5 with the collection's text", () => {
    const s = scenario(
      [
        proposal,
        query(`/chain/gov/v1/proposals/1/votes/${val2}`, 400, {
          code: 3,
          message: `voter: ${val2} not found for proposal: 1`,
          details: [],
        }),
        query(`/chain/gov/v1/proposals/1/deposits/${val2}`, 404, {
          code: 5,
          message: `collections: not found: key '("1", "${val2}")' of type github.com/cosmos/gogoproto/chain.gov.v1.Deposit`,
          details: [],
        }),
        query("/chain/gov/v1/proposals/7", 404, { code: 5, message: "proposal 7 doesn't exist", details: [] }),
      ],
      { chain: { gov: { maxDepositPeriod: "1h", votingPeriod: "1h", expeditedVotingPeriod: "30m" } } },
    );
    const { report } = runScenario(s);
    expect(report.failures.map(failureText)).toEqual([]);
  });
});
