import { describe, expect, it } from "vitest";
import { addressOfName, DEFAULT_BECH32_PREFIX, govAuthority } from "../core/address.js";

const GOV_AUTHORITY = govAuthority(DEFAULT_BECH32_PREFIX);

import { parseRfc3339 } from "../core/go/time.js";
import { scenarioFromData } from "./load.js";
import { type StepActionDocument, stepDocumentOf, type WritableAction } from "./step-document.js";

const t = parseRfc3339("2030-01-02T03:04:05.678Z");
if (!t.ok) throw new Error(t.error);

/** One action of every kind the harness and a file can write, with the optional fields both set and unset. */
const ACTIONS: readonly WritableAction[] = [
  {
    kind: "submitProposal",
    id: "p1",
    proposer: "val1",
    title: "p1",
    summary: "p1",
    metadata: "",
    deposit: [{ denom: "stake", amount: 10_000_000n }],
    expedited: false,
    messages: [
      { kind: "softwareUpgrade", authority: GOV_AUTHORITY, plan: { name: "v2", height: 100n, info: "" } },
      { kind: "cancelUpgrade", authority: GOV_AUTHORITY },
    ],
  },
  {
    kind: "submitProposal",
    id: "p2",
    proposer: "val2",
    title: "A title",
    summary: "A summary",
    metadata: "text proposal",
    deposit: [],
    expedited: true,
    messages: [
      {
        kind: "softwareUpgrade",
        authority: addressOfName("val3"),
        plan: {
          name: "v3",
          height: 9_223_372_036_854_775_807n,
          info: '{"binaries":{}}',
          time: { seconds: BigInt(Math.floor(t.value / 1000)), nanos: 678_000_000 },
          upgradedClientState: { typeUrl: "/x.Y", value: new Uint8Array([1, 2, 250]) },
        },
      },
    ],
  },
  {
    kind: "deposit",
    proposal: "p1",
    from: "val2",
    amount: [
      { denom: "atom", amount: 1n },
      { denom: "stake", amount: 5n },
    ],
  },
  { kind: "deposit", proposal: "p1", from: "val2", amount: [] },
  {
    kind: "vote",
    proposal: "p1",
    votes: new Map([
      ["val3", "no_with_veto"],
      ["val1", "yes"],
    ]),
  },
  { kind: "cancelProposal", proposal: "p1", from: "val2" },
  {
    kind: "tx",
    from: "val4",
    messages: [
      { kind: "cancelUpgrade", authority: addressOfName("val4") },
      { kind: "cancelUpgrade", authority: GOV_AUTHORITY },
    ],
  },
  {
    kind: "authorityExec",
    messages: [{ kind: "softwareUpgrade", authority: GOV_AUTHORITY, plan: { name: "v2", height: 7n, info: "x" } }],
  },
  { kind: "swapBinary", node: "val1", binary: "v2" },
  { kind: "swapBinary", node: "val1", binary: "v2", skipUpgradeHeights: [] },
  { kind: "restart", node: "val2", skipUpgradeHeights: [100, 200] },
  { kind: "restart", node: "val2" },
  { kind: "stop", node: "val3" },
  { kind: "writeUpgradeInfo", node: "val4", content: '{"name":"v2",' },
  {
    kind: "query",
    node: "val1",
    path: "/cosmos/upgrade/v1beta1/current_plan",
    height: 5,
    headers: new Map([["x-a", "1"]]),
    expect: { status: 200, body: { plan: null } },
  },
  { kind: "query", node: "val2", path: "/x", headers: new Map(), expect: { status: 404 } },
  { kind: "expect", expect: {} },
];

describe("a step's scenario form, derived from its action", () => {
  it("resolves back to the same action, for every kind", () => {
    const steps = ACTIONS.map((a, i) => ({ at: i + 2, ...stepDocumentOf(a, DEFAULT_BECH32_PREFIX) }));
    const loaded = scenarioFromData("step-document.yaml", {
      name: "step-document",
      chain: { validators: ["val1", "val2", "val3", "val4"].map((name) => ({ name, power: 100 })) },
      binaries: { v1: {}, v2: {} },
      steps,
    });
    if (!loaded.ok) throw new Error(loaded.error.map((e) => `${e.path}: ${e.message}`).join("\n"));
    expect(loaded.value.steps.map((s) => s.action)).toEqual(ACTIONS);
  });

  it("leaves out what the resolver fills in the same way, and writes every other field", () => {
    const [plain, full] = ACTIONS.slice(0, 2).map((a) => stepDocumentOf(a, DEFAULT_BECH32_PREFIX)) as [
      StepActionDocument,
      StepActionDocument,
    ];
    expect(plain).toEqual({
      submitProposal: {
        id: "p1",
        proposer: "val1",
        deposit: "10000000stake",
        messages: [{ softwareUpgrade: { name: "v2", height: 100 } }, { cancelUpgrade: {} }],
      },
    });
    expect(full.submitProposal).toMatchObject({
      title: "A title",
      summary: "A summary",
      deposit: "",
      metadata: "text proposal",
      expedited: true,
      messages: [
        {
          softwareUpgrade: {
            height: "9223372036854775807",
            time: "2030-01-02T03:04:05.678Z",
            upgradedClientState: { typeUrl: "/x.Y", value: "AQL6" },
            authority: addressOfName("val3"),
          },
        },
      ],
    });
    // A tx's messages default to the signer's own address: only another authority is written.
    expect(stepDocumentOf(ACTIONS[6]!, DEFAULT_BECH32_PREFIX)).toEqual({
      tx: { from: "val4", messages: [{ cancelUpgrade: {} }, { cancelUpgrade: { authority: GOV_AUTHORITY } }] },
    });
  });
});
