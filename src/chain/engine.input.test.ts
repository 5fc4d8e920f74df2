import { describe, expect, it } from "vitest";
import { binary, testChain } from "../../test/kit/chain.js";
import { addressOfName, govAuthority } from "../core/address.js";
import type { Action } from "./actions.js";

const chain = () => testChain({ binaries: [binary("v1"), binary("v2", { v2: { handler: "noop" } })] });
const coins = [{ denom: "stake", amount: 10_000_000n }];

describe("bad input through the library API gives failed step results, never a throw", () => {
  const unknownNode: Action[] = [
    { kind: "swapBinary", node: "nope", binary: "v2" },
    { kind: "restart", node: "nope" },
    { kind: "stop", node: "nope" },
  ];
  for (const action of unknownNode) {
    it(`${action.kind} naming an unknown node`, () => {
      const e = chain();
      e.run({ untilHeight: 3 });
      const r = e.apply(action);
      expect(r).toMatchObject({ ok: false, error: 'unknown node "nope"', action: action.kind, height: 3 });
      e.run({ untilHeight: 5 });
      expect(e.height).toBe(5);
      expect(e.halts).toEqual([]);
    });
  }

  const unknownLabel: Action[] = [
    { kind: "vote", proposal: "ghost", votes: new Map([["val1", "yes"]]) },
    { kind: "deposit", proposal: "ghost", from: "val1", amount: coins },
    { kind: "cancelProposal", proposal: "ghost", from: "val1" },
  ];
  for (const action of unknownLabel) {
    it(`${action.kind} naming an unknown proposal label`, () => {
      const e = chain();
      e.run({ untilHeight: 3 });
      const r = e.apply(action, "bad");
      expect(r).toMatchObject({
        ok: false,
        label: "bad",
        error: 'proposal "ghost" has no id: its submission has not succeeded',
      });
      e.run({ untilHeight: 5 });
      expect(e.stepResults()).toEqual([r]);
    });
  }

  it("a label whose submission failed counts as unknown", () => {
    const e = chain();
    e.apply({
      kind: "submitProposal",
      id: "broke",
      proposer: "pauper",
      title: "t",
      summary: "s",
      metadata: "",
      deposit: coins,
      expedited: false,
      messages: [{ kind: "cancelUpgrade", authority: govAuthority() }],
    });
    e.run({ untilHeight: 2 });
    const submitted = e.stepResults()[0]!;
    expect(submitted.ok).toBe(false);
    expect(submitted.error).toMatch(/insufficient funds/);
    expect(e.apply({ kind: "vote", proposal: "broke", votes: new Map([["val1", "yes"]]) })).toMatchObject({
      ok: false,
      error: 'proposal "broke" has no id: its submission has not succeeded',
    });
  });

  it("a transaction the chain rejects is a failed step result with the chain's error", () => {
    const e = chain();
    e.apply({
      kind: "tx",
      from: "val1",
      messages: [
        { kind: "softwareUpgrade", authority: addressOfName("val1"), plan: { name: "v2", height: 100n, info: "" } },
      ],
    });
    e.run({ untilHeight: 2 });
    const r = e.stepResults()[0]!;
    expect(r.ok).toBe(false);
    expect(r.error).toBe(
      `expected ${govAuthority()} got ${addressOfName("val1")}: expected authority account as only signer for proposal message`,
    );
    expect(e.committed()?.plan).toBeNull();
  });

  it("an invalid plan is recorded as the step's error, not thrown", () => {
    const e = chain();
    e.apply({
      kind: "authorityExec",
      messages: [{ kind: "softwareUpgrade", authority: govAuthority(), plan: { name: "", height: -5n, info: "" } }],
    });
    e.run({ untilHeight: 2 });
    const r = e.stepResults()[0]!;
    expect(r.ok).toBe(false);
    expect(r.error).toBe("plan: name cannot be empty: invalid request");
  });

  it("swapping to an unknown binary is a failed step that leaves the node as it was", () => {
    const e = chain();
    e.run({ untilHeight: 3 });
    const r = e.apply({ kind: "swapBinary", node: "val1", binary: "v9" });
    expect(r).toMatchObject({ ok: false, error: 'unknown binary "v9"' });
    expect(e.nodeStatus("val1")).toMatchObject({ status: "running", binary: "v1" });
    expect(e.halts).toEqual([]);
    e.run({ untilHeight: 6 });
    expect(e.height).toBe(6);
  });

  it("a transaction still in the mempool is reported as not included", () => {
    const e = chain();
    e.run({ untilHeight: 3 });
    expect(
      e.apply({ kind: "authorityExec", messages: [{ kind: "cancelUpgrade", authority: govAuthority() }] }),
    ).toBeUndefined();
    expect(e.stepResults()).toEqual([
      expect.objectContaining({
        ok: false,
        height: null,
        error: "not included in a committed block (the chain is at height 3)",
      }),
    ]);
    e.run({ untilHeight: 4 });
    expect(e.stepResults()).toEqual([expect.objectContaining({ ok: true, height: 4, error: null })]);
  });
});
