import { describe, expect, it } from "vitest";
import { addressOfName, govAuthority } from "../core/address.js";
import { formatScenarioError } from "./errors.js";
import { QUERY_ACTIONS_AVAILABLE } from "./features.js";
import { parseScenario } from "./load.js";
import type { Scenario } from "./model.js";

const MINIMAL = { name: "m", binaries: { v1: {} } };
const GENESIS = 1_767_225_600_000;

const load = (doc: unknown, file = "s.json") => parseScenario(file, JSON.stringify(doc));

function errorsOf(doc: unknown): string[] {
  const r = load(doc);
  return r.ok ? [] : r.error.map(formatScenarioError);
}

function loaded(doc: unknown): Scenario {
  const r = load(doc);
  if (!r.ok) throw new Error(r.error.map(formatScenarioError).join("\n"));
  return r.value;
}

function yamlErrors(text: string, file = "s.yaml") {
  const r = parseScenario(file, text);
  return r.ok ? [] : r.error;
}

const withSteps = (steps: unknown[], extra: object = {}) => ({ ...MINIMAL, ...extra, steps });
const submit = (id = "up", extra: object = {}) => ({
  at: 2,
  submitProposal: { id, proposer: "val1", messages: [{ softwareUpgrade: { name: "v2", height: 20 } }], ...extra },
});

describe("a minimal file takes every default", () => {
  it("resolves the whole model", () => {
    const s = loaded(MINIMAL);
    expect(s.name).toBe("m");
    expect(s.file).toBe("s.json");
    expect(s.description).toBe("");
    expect(s.seed).toBe(1);
    expect(s.chain.chainId).toBe("chain-sim-1");
    expect(s.chain.genesisTime).toBe(GENESIS);
    expect(s.chain.blockTime).toEqual({ kind: "fixed", intervalMs: 6000 });
    expect(s.chain.gov).toEqual({
      minDeposit: [{ denom: "stake", amount: 10_000_000n }],
      expeditedMinDeposit: [{ denom: "stake", amount: 50_000_000n }],
      maxDepositPeriodMs: 172_800_000,
      votingPeriodMs: 172_800_000,
      expeditedVotingPeriodMs: 86_400_000,
      quorum: "0.334",
      threshold: "0.5",
      expeditedThreshold: "0.667",
      vetoThreshold: "0.334",
      minInitialDepositRatio: "0",
      minDepositRatio: "0.01",
      proposalCancelRatio: "0.5",
      proposalCancelDest: "",
      burnVoteQuorum: false,
      burnProposalDepositPrevote: false,
      burnVoteVeto: true,
    });
    expect(s.chain.validators).toEqual([{ name: "val1", power: 100 }]);
    expect(s.chain.accounts).toEqual(new Map([["val1", [{ denom: "stake", amount: 1_000_000_000_000n }]]]));
    expect(s.binaries).toEqual(
      new Map([
        [
          "v1",
          {
            name: "v1",
            modules: new Map([
              ["bank", 1],
              ["gov", 1],
              ["upgrade", 1],
            ]),
            migrations: new Map(),
            upgrades: new Map(),
          },
        ],
      ]),
    );
    expect(s.genesisBinary).toBe("v1");
    expect(s.nodes).toEqual(
      new Map([
        [
          "val1",
          {
            name: "val1",
            validator: true,
            power: 100,
            binary: "v1",
            skipUpgradeHeights: [],
            sidecar: { enabled: false, delayMs: 0, binaries: new Map() },
            upgradeInfoWritable: true,
          },
        ],
      ]),
    );
    expect(s.steps).toEqual([]);
    expect(s.run).toEqual({});
    expect(s.expect).toBeUndefined();
    expect(s.options).toEqual({ expeditedFallbackVotes: "delete", faults: [] });
  });
});

describe("errors name the file and the exact path", () => {
  it("reports an unknown key at any depth", () => {
    expect(errorsOf({ ...MINIMAL, extra: 1 })).toEqual(['s.json: extra: unknown key "extra"']);
    expect(errorsOf({ ...MINIMAL, chain: { gov: { votingPeriodd: "1h" } } })).toEqual([
      's.json: chain.gov.votingPeriodd: unknown key "votingPeriodd"',
    ]);
    expect(
      errorsOf({ name: "m", binaries: { v1: { upgrades: { "v2.0": { storeUpgrades: { addd: ["x"] } } } } } }),
    ).toEqual(['s.json: binaries.v1.upgrades["v2.0"].storeUpgrades.addd: unknown key "addd"']);
    expect(errorsOf(withSteps([{ at: 1, stop: { node: "val1", when: 1 } }]))).toEqual([
      's.json: steps[0].stop.when: unknown key "when"',
    ]);
  });

  it("names balances by validator, account or module account, with coins in the file's syntax", () => {
    const bal = (balances: object) =>
      errorsOf({ ...MINIMAL, chain: { accounts: { alice: "5stake" } }, expect: { balances } });
    expect(bal({ val1: "1stake", alice: "", gov: "0stake", distribution: "" })).toEqual([]);
    expect(bal({ bob: "1stake" })).toEqual([
      's.json: expect.balances.bob: unknown account "bob" (a validator, an account, or a module account: gov, distribution)',
    ]);
    expect(errorsOf({ ...MINIMAL, expect: { supply: "1 stake" } })).toEqual([
      's.json: expect.supply: invalid coin "1 stake": expected <integer><denom> such as "10000000stake" (denom [a-zA-Z][a-zA-Z0-9/:._-]{2,127})',
    ]);
  });

  it("takes events as {type, height?, attributes?} with string attribute values", () => {
    const ev = (events: unknown) => errorsOf({ ...MINIMAL, expect: { events } });
    expect(ev([{ type: "proposal_vote", height: 3, attributes: { proposal_id: "1" } }])).toEqual([]);
    expect(ev([{ height: 3 }])).toEqual(["s.json: expect.events[0].type: required key is missing"]);
    expect(ev([{ type: "x", attributes: { proposal_id: 1 } }])).toEqual([
      "s.json: expect.events[0].attributes.proposal_id: expected a string, got number 1",
    ]);
  });

  it("takes logs and noLogs as {level, message, module?, height?, node?}, one line per bad entry", () => {
    const logs = (key: string, list: unknown) => errorsOf({ ...MINIMAL, expect: { [key]: list } });
    const line = { level: "error", module: "x/upgrade", message: 'UPGRADE "v2" NEEDED at height: 10: ' };
    expect(logs("logs", [line, { ...line, height: 10, node: "val1" }])).toEqual([]);
    expect(logs("noLogs", [{ level: "info", message: "m" }])).toEqual([]);
    expect(logs("logs", [{ level: "error" }])).toEqual(["s.json: expect.logs[0].message: required key is missing"]);
    expect(logs("logs", [{ message: "m" }])).toEqual(["s.json: expect.logs[0].level: required key is missing"]);
    expect(logs("logs", [line, { ...line, level: "warn" }])).toEqual([
      's.json: expect.logs[1].level: expected one of "info", "error", got string "warn"',
    ]);
    expect(logs("noLogs", [{ ...line, text: "x" }])).toEqual(['s.json: expect.noLogs[0].text: unknown key "text"']);
    expect(logs("logs", [{ ...line, node: "ghost" }])).toEqual(['s.json: expect.logs[0].node: unknown node "ghost"']);
    expect(logs("logs", [{ ...line, height: 0 }])).toEqual(["s.json: expect.logs[0].height: must be ≥ 1, got 0"]);
    expect(logs("logs", { level: "info" })).toEqual(["s.json: expect.logs: expected a list, got a map"]);
  });

  it("takes noEvents entries in the same shape, and names the entry that is wrong", () => {
    const none = (noEvents: unknown) => errorsOf({ ...MINIMAL, expect: { noEvents } });
    expect(none([{ type: "active_proposal", attributes: { proposal_id: "1" } }])).toEqual([]);
    expect(none([{ type: "x" }, { type: "y", colour: "red" }])).toEqual([
      's.json: expect.noEvents[1].colour: unknown key "colour"',
    ]);
  });

  it("bounds a run to the blocks one run may commit", () => {
    expect(errorsOf({ ...MINIMAL, run: { untilHeight: 9007199254740991 } })).toEqual([
      "s.json: run.untilHeight: must be ≤ 1000000 (a run commits at most 1000000 blocks), got 9007199254740991",
    ]);
    expect(errorsOf({ ...MINIMAL, run: { maxBlocks: 1000001 } })).toEqual([
      "s.json: run.maxBlocks: must be ≤ 1000000 (a run commits at most 1000000 blocks), got 1000001",
    ]);
    expect(errorsOf({ ...MINIMAL, run: { untilHeight: 1000000 } })).toEqual([]);
  });

  it("reports a missing required key and a bad top-level type", () => {
    expect(errorsOf({ binaries: { v1: {} } })).toEqual(["s.json: name: required key is missing"]);
    expect(errorsOf({ name: "m" })).toEqual(["s.json: binaries: required key is missing"]);
    expect(errorsOf({ name: "m", binaries: {} })).toEqual(["s.json: binaries: at least one binary is required"]);
    expect(errorsOf({ name: "Big Name", binaries: { v1: {} } })).toEqual([
      's.json: name: must match [a-z0-9._-]+, got "Big Name"',
    ]);
    expect(errorsOf([])).toEqual(["s.json: expected a map, got a list"]);
  });

  it("quotes offending values as Go's %q does, so a hostile file cannot recolour the terminal", () => {
    expect(errorsOf({ name: "\u001b[1;31mred", binaries: { v1: {} } })).toEqual([
      's.json: name: must match [a-z0-9._-]+, got "\\x1b[1;31mred"',
    ]);
    expect(errorsOf({ ...MINIMAL, "bell\u0007": 1 })).toEqual(['s.json: ["bell\\a"]: unknown key "bell\\a"']);
    expect(errorsOf(withSteps([{ at: 1, stop: { node: "v\u00a0al" } }]))).toEqual([
      's.json: steps[0].stop.node: node name must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, got "v\\u00a0al"',
      's.json: steps[0].stop.node: unknown node "v\\u00a0al"',
    ]);
  });

  it("reports bad durations with Go's texts and range checks", () => {
    const chain = (blockTime: unknown) => errorsOf({ ...MINIMAL, chain: { blockTime } });
    expect(chain("5")).toEqual(['s.json: chain.blockTime: time: missing unit in duration "5"']);
    expect(chain("1d")).toEqual(['s.json: chain.blockTime: time: unknown unit "d" in duration "1d"']);
    expect(chain("x")).toEqual(['s.json: chain.blockTime: time: invalid duration "x"']);
    expect(chain("-1s")).toEqual(['s.json: chain.blockTime: must be at least 1ms, got "-1s"']);
    expect(chain("500us")).toEqual(['s.json: chain.blockTime: must be at least 1ms, got "500us"']);
    expect(chain(6)).toEqual([
      's.json: chain.blockTime: expected a duration such as "6s", or {min, max}, or {mean, stddev, min?, max?}, or {drift: {...}}, got number 6',
    ]);
    expect(chain({ min: "1s" })).toEqual(["s.json: chain.blockTime.max: required by the uniform model {min, max}"]);
    expect(chain({ mean: "5s" })).toEqual([
      "s.json: chain.blockTime.stddev: required by the normal model {mean, stddev, min?, max?}",
    ]);
    expect(chain({ min: "1s", max: "2s", median: "1s" })).toEqual([
      's.json: chain.blockTime.median: unknown key "median"',
    ]);
    expect(errorsOf(withSteps([{ on: { halt: "val1" }, delay: "-1s", stop: { node: "val1" } }]))).toEqual([
      's.json: steps[0].delay: must not be negative, got "-1s"',
    ]);
  });

  it("reports bad coins and ratios", () => {
    expect(errorsOf({ ...MINIMAL, chain: { accounts: { alice: "-5stake" } } })).toEqual([
      's.json: chain.accounts.alice: invalid coin "-5stake": amount must not be negative',
    ]);
    expect(errorsOf({ ...MINIMAL, chain: { gov: { minDeposit: "10" } } })).toEqual([
      's.json: chain.gov.minDeposit: invalid coin "10": expected <integer><denom> such as "10000000stake" (denom [a-zA-Z][a-zA-Z0-9/:._-]{2,127})',
    ]);
    expect(
      errorsOf(withSteps([submit(), { at: 3, deposit: { proposal: "up", from: "val1", amount: "1stake,2stake" } }])),
    ).toEqual(['s.json: steps[1].deposit.amount: invalid coins "1stake,2stake": denom "stake" appears twice']);
    expect(errorsOf({ ...MINIMAL, chain: { gov: { quorum: 0.4, threshold: "-0.5" } } })).toEqual([
      's.json: chain.gov.quorum: expected a decimal string such as "0.334" (quote it), got number 0.4',
      's.json: chain.gov.threshold: expected a non-negative decimal with at most 18 decimals, got "-0.5"',
    ]);
  });

  it("reports an unknown voter as the spec's example does", () => {
    const doc = withSteps([
      submit(),
      { at: 3, vote: { proposal: "up", votes: { val1: "yes" } } },
      { at: 4, vote: { proposal: "up", votes: { val9: "no" } } },
    ]);
    expect(errorsOf(doc)).toEqual(['s.json: steps[2].vote.votes.val9: unknown validator "val9"']);
  });

  it("accepts accounts as voters and rejects bad vote options", () => {
    const doc = withSteps([submit(), { at: 3, vote: { proposal: "up", votes: { alice: "yes", val1: "maybe" } } }], {
      chain: { accounts: { alice: "5stake" } },
    });
    expect(errorsOf(doc)).toEqual([
      's.json: steps[1].vote.votes.val1: expected one of "yes", "no", "abstain", "no_with_veto", got string "maybe"',
    ]);
    expect(errorsOf(withSteps([submit(), { at: 3, vote: { proposal: "up", votes: {} } }]))).toEqual([
      "s.json: steps[1].vote.votes: at least one voter is required",
    ]);
  });

  it("reports unknown nodes and binaries", () => {
    const doc = {
      name: "m",
      binaries: { v1: {} },
      genesisBinary: "v0",
      nodes: { full1: { binary: "v3", sidecar: { binaries: { v2: "v4" } } } },
      steps: [
        { at: 2, swapBinary: { node: "val2", binary: "v2" } },
        { at: 3, restart: { node: "full1" } },
        { on: { halt: "nobody" }, stop: { node: "full2" } },
      ],
    };
    expect(errorsOf(doc)).toEqual([
      's.json: genesisBinary: unknown binary "v0"',
      's.json: nodes.full1.binary: unknown binary "v3"',
      's.json: nodes.full1.sidecar.binaries.v2: unknown binary "v4"',
      's.json: steps[0].swapBinary.node: unknown node "val2"',
      's.json: steps[0].swapBinary.binary: unknown binary "v2"',
      's.json: steps[2].on.halt: unknown node "nobody"',
      's.json: steps[2].stop.node: unknown node "full2"',
    ]);
  });

  it("reports unknown accounts and proposal labels everywhere they are used", () => {
    const doc = withSteps(
      [
        submit("up", { proposer: "bob" }),
        { at: 3, deposit: { proposal: "nope", from: "carol", amount: "1stake" } },
        { at: 3, cancelProposal: { proposal: "nope2" } },
        { at: 3, tx: { from: "dave", messages: [{ cancelUpgrade: {} }] } },
        { at: 4, expect: { proposals: { nope3: "passed", up: "passed" } } },
      ],
      { expect: { proposals: { nope4: "dropped" }, steps: { ghost: { ok: true } } } },
    );
    // `expect` precedes `steps` in this document.
    expect(errorsOf(doc)).toEqual([
      's.json: expect.proposals.nope4: unknown proposal label "nope4"',
      's.json: expect.steps.ghost: unknown step label "ghost"',
      's.json: steps[0].submitProposal.proposer: unknown account "bob"',
      's.json: steps[1].deposit.proposal: unknown proposal label "nope"',
      's.json: steps[1].deposit.from: unknown account "carol"',
      's.json: steps[2].cancelProposal.proposal: unknown proposal label "nope2"',
      's.json: steps[3].tx.from: unknown account "dave"',
      's.json: steps[4].expect.proposals.nope3: unknown proposal label "nope3"',
    ]);
  });

  it("accepts a proposal label defined by a later step", () => {
    expect(errorsOf(withSteps([{ at: 5, vote: { proposal: "up", votes: { val1: "yes" } } }, submit()]))).toEqual([]);
  });

  it("requires exactly one trigger and one action", () => {
    const doc = withSteps([
      { at: 3, on: { halt: "any" }, stop: { node: "val1" } },
      { at: 3, stop: { node: "val1" }, restart: { node: "val1" } },
      { at: 3, label: "nothing" },
      { stop: { node: "val1" } },
      { at: 3, delay: "1s", stop: { node: "val1" } },
    ]);
    expect(errorsOf(doc)).toEqual([
      's.json: steps[0]: only one trigger allowed, found "at" and "on"',
      's.json: steps[1]: only one action allowed, found "restart" and "stop"',
      "s.json: steps[2]: missing action: one of submitProposal, deposit, vote, cancelProposal, tx, authorityExec, swapBinary, restart, stop, writeUpgradeInfo, query, expect",
      "s.json: steps[3]: missing trigger: one of at, on",
      's.json: steps[4].delay: "delay" is only allowed with an "on" trigger',
    ]);
  });

  it("checks trigger values", () => {
    expect(errorsOf(withSteps([{ at: 0, stop: { node: "val1" } }]))).toEqual([
      "s.json: steps[0].at: must be ≥ 1, got 0",
    ]);
    expect(errorsOf(withSteps([{ at: { time: "50h" }, stop: { node: "val1" } }]))).toEqual([
      's.json: steps[0].at.time: expected "+<duration>" (offset from genesis, e.g. "+50h") or an RFC 3339 time, got "50h"',
    ]);
    expect(errorsOf(withSteps([{ at: "5", stop: { node: "val1" } }]))).toEqual([
      's.json: steps[0].at: expected a height (integer ≥ 1) or {time: "+50h" | RFC 3339}, got string "5"',
    ]);
    expect(errorsOf(withSteps([{ on: { halt: "val1", kind: "crash" }, stop: { node: "val1" } }]))).toEqual([
      's.json: steps[0].on.kind: expected one of "upgrade-needed", "binary-too-early", "downgrade", "handler-error", "upgrade-info-write-failed", "store-load-failed", "app-hash-mismatch", got string "crash"',
    ]);
  });

  it("rejects duplicate step labels, proposal ids and validators", () => {
    const doc = withSteps(
      [
        { label: "a", ...submit("up") },
        { label: "a", ...submit("up") },
        { label: "b", at: 3, stop: { node: "val1" } },
      ],
      {
        chain: {
          validators: [
            { name: "val1", power: 1 },
            { name: "val1", power: 2 },
          ],
        },
      },
    );
    expect(errorsOf(doc)).toEqual([
      's.json: chain.validators[1].name: duplicate validator "val1" (first at chain.validators[0])',
      's.json: steps[1].label: duplicate step label "a" (first at steps[0])',
      's.json: steps[1].submitProposal.id: duplicate proposal id "up" (first at steps[0])',
    ]);
  });

  it("rejects a bad kind in a halts expectation", () => {
    expect(errorsOf({ ...MINIMAL, expect: { halts: [{ node: "val1" }, { kind: "crash" }] } })).toEqual([
      's.json: expect.halts[1].kind: expected one of "upgrade-needed", "binary-too-early", "downgrade", "handler-error", "upgrade-info-write-failed", "store-load-failed", "app-hash-mismatch", got string "crash"',
    ]);
    expect(errorsOf({ ...MINIMAL, expect: { halts: [{ node: "ghost" }], upgradeInfo: { ghost2: null } } })).toEqual([
      's.json: expect.halts[0].node: unknown node "ghost"',
      's.json: expect.upgradeInfo.ghost2: unknown node "ghost2"',
    ]);
  });

  it("explains union mismatches by the alternative whose type matched", () => {
    expect(errorsOf({ ...MINIMAL, expect: { halted: true } })).toEqual([
      "s.json: expect.halted: expected false or {height, nodes?}, got boolean true",
    ]);
    expect(errorsOf({ ...MINIMAL, expect: { halted: { height: "x" } } })).toEqual([
      's.json: expect.halted.height: expected an integer, got string "x"',
    ]);
    expect(errorsOf({ ...MINIMAL, expect: { plan: { name: "v2" } } })).toEqual([
      "s.json: expect.plan.height: required key is missing",
    ]);
    expect(errorsOf({ ...MINIMAL, expect: { plan: "v2" } })).toEqual([
      's.json: expect.plan: expected null or {name, height, info?}, got string "v2"',
    ]);
  });

  it("checks binaries: migrations need the module, failMessage needs handler fail", () => {
    const doc = {
      name: "m",
      binaries: {
        v1: {
          modules: { foo: 2 },
          migrations: { foo: [1, 1], bar: [1] },
          upgrades: { v2: { handler: "noop", failMessage: "x" }, v3: { handler: "explode" } },
        },
      },
    };
    expect(errorsOf(doc)).toEqual([
      "s.json: binaries.v1.migrations.foo[1]: duplicate from-version 1",
      's.json: binaries.v1.migrations.bar: no module "bar" in this binary\'s modules',
      's.json: binaries.v1.upgrades.v2.failMessage: only allowed with handler "fail"',
      's.json: binaries.v1.upgrades.v3.handler: expected one of "migrate", "noop", "fail", got string "explode"',
    ]);
  });

  it("reserves the names default, any and __proto__", () => {
    const doc = {
      name: "m",
      binaries: { v1: {} },
      chain: { validators: [{ name: "default", power: 1 }] },
      nodes: { any: {} },
    };
    expect(errorsOf(doc)).toEqual([
      's.json: chain.validators[0].name: validator name "default" is reserved',
      's.json: nodes.any: node name "any" is reserved (on.halt: any)',
    ]);
    expect(
      errorsOf(JSON.parse('{"name":"m","binaries":{"v1":{}},"chain":{"accounts":{"__proto__":"1stake"}}}')),
    ).toEqual(['s.json: chain.accounts.__proto__: key "__proto__" is not allowed']);
  });

  it("accepts query steps now that the node API exists, defaulting the node and checking it", () => {
    expect(QUERY_ACTIONS_AVAILABLE).toBe(true);
    const q = (extra: object) => ({
      at: 3,
      query: { path: "/chain/upgrade/v1beta1/current_plan", expect: { status: 200 }, ...extra },
    });
    const r = load(withSteps([q({ height: 2, headers: { "x-a": "b" } })]));
    if (!r.ok) throw new Error(r.error.map(formatScenarioError).join("\n"));
    expect(r.value.steps[0]!.action).toEqual({
      kind: "query",
      node: "val1",
      path: "/chain/upgrade/v1beta1/current_plan",
      height: 2,
      headers: new Map([["x-a", "b"]]),
      expect: { status: 200 },
    });
    expect(errorsOf(withSteps([q({ node: "nobody" })]))).toEqual([
      's.json: steps[0].query.node: unknown node "nobody"',
    ]);
  });

  it("resolves chain.pruning like app.toml and rejects invalid custom options", () => {
    const pruned = (pruning: object) => load({ ...MINIMAL, chain: { pruning } });
    const everything = pruned({ strategy: "everything" });
    expect(everything.ok && everything.value.chain.pruning).toEqual({
      strategy: "everything",
      keepRecent: 2,
      interval: 10,
    });
    const custom = pruned({ strategy: "custom", keepRecent: 5, interval: 10 });
    expect(custom.ok && custom.value.chain.pruning).toEqual({ strategy: "custom", keepRecent: 5, interval: 10 });
    const dflt = load(MINIMAL);
    expect(dflt.ok && dflt.value.chain.pruning).toEqual({ strategy: "default", keepRecent: 362880, interval: 10 });
    expect(errorsOf({ ...MINIMAL, chain: { pruning: { strategy: "custom", keepRecent: 5, interval: 5 } } })).toEqual([
      `s.json: chain.pruning: invalid custom pruning options: 'pruning-interval' must not be less than 10. For the most aggressive pruning, select pruning = "everything"`,
    ]);
    expect(errorsOf({ ...MINIMAL, chain: { pruning: { strategy: "nothing", interval: 10 } } })).toEqual([
      's.json: chain.pruning.interval: only allowed with strategy "custom"',
    ]);
  });

  it("returns every error at once, in document order", () => {
    // `steps` comes before `chain` in this document; a missing key sorts after its siblings.
    const doc = {
      name: "m",
      steps: [
        { at: 3, vote: { proposal: "up", votes: { val9: "yes" } } },
        { at: 0, stop: { node: "val1" } },
      ],
      chain: { blockTime: "1d", accounts: { alice: "x" } },
      binaries: { v1: { modules: { foo: "1" } } },
      expect: { halts: [{ kind: "boom" }] },
    };
    expect(errorsOf(doc)).toEqual([
      's.json: steps[0].vote.proposal: unknown proposal label "up"',
      's.json: steps[0].vote.votes.val9: unknown validator "val9"',
      "s.json: steps[1].at: must be ≥ 1, got 0",
      's.json: chain.blockTime: time: unknown unit "d" in duration "1d"',
      's.json: chain.accounts.alice: invalid coin "x": expected <integer><denom> such as "10000000stake" (denom [a-zA-Z][a-zA-Z0-9/:._-]{2,127})',
      's.json: binaries.v1.modules.foo: expected an integer, got string "1"',
      's.json: expect.halts[0].kind: expected one of "upgrade-needed", "binary-too-early", "downgrade", "handler-error", "upgrade-info-write-failed", "store-load-failed", "app-hash-mismatch", got string "boom"',
    ]);
  });
});

describe("plan fields inside messages pass through unjudged", () => {
  const plan = (height: unknown, name = "v2") =>
    withSteps([{ at: 2, authorityExec: { messages: [{ softwareUpgrade: { name, height, info: "x" } }] } }]);
  const heightOf = (s: Scenario) => {
    const a = s.steps[0]?.action;
    const m = a?.kind === "authorityExec" ? a.messages[0] : undefined;
    return m?.kind === "softwareUpgrade" ? m.plan : undefined;
  };
  it("keeps zero, negative and beyond-2^53 heights and empty names", () => {
    expect(heightOf(loaded(plan(0, "")))).toEqual({ name: "", height: 0n, info: "x" });
    expect(heightOf(loaded(plan(-5)))?.height).toBe(-5n);
    expect(heightOf(loaded(plan("9223372036854775807")))?.height).toBe(9_223_372_036_854_775_807n);
    expect(heightOf(loaded(plan("-9223372036854775808")))?.height).toBe(-9_223_372_036_854_775_808n);
  });
  it("rejects what an int64 cannot carry", () => {
    expect(errorsOf(plan("9223372036854775808"))).toEqual([
      's.json: steps[0].authorityExec.messages[0].softwareUpgrade.height: "9223372036854775808" is outside the int64 range',
    ]);
    expect(errorsOf(plan(1e20))).toEqual([
      's.json: steps[0].authorityExec.messages[0].softwareUpgrade.height: 100000000000000000000 is beyond ±2^53 and loses precision: write it as a string, e.g. "9223372036854775807"',
    ]);
    expect(errorsOf(plan("ten"))).toEqual([
      's.json: steps[0].authorityExec.messages[0].softwareUpgrade.height: expected an integer, got string "ten"',
    ]);
    expect(errorsOf(plan(1.5))).toEqual([
      "s.json: steps[0].authorityExec.messages[0].softwareUpgrade.height: expected a 64-bit integer, got number 1.5",
    ]);
  });
  it("requires exactly one message type", () => {
    expect(
      errorsOf(
        withSteps([
          {
            at: 2,
            authorityExec: { messages: [{}, { cancelUpgrade: {}, softwareUpgrade: { name: "a", height: 1 } }] },
          },
        ]),
      ),
    ).toEqual([
      "s.json: steps[0].authorityExec.messages[0]: missing message type: one of softwareUpgrade, cancelUpgrade",
      's.json: steps[0].authorityExec.messages[1]: only one message type allowed, found "softwareUpgrade" and "cancelUpgrade"',
    ]);
  });
});

describe("YAML and JSON sources", () => {
  it("names the line and column of a YAML syntax error", () => {
    const errors = yamlErrors("name: m\nbinaries:\n  v1: {}\n seed: 1\n");
    expect(errors[0]).toMatchObject({ file: "s.yaml", path: "", line: 4, column: 1 });
    expect(formatScenarioError(errors[0]!)).toBe(
      "s.yaml: YAML syntax error: All mapping items must start at the same column at line 4, column 1",
    );
  });
  it("rejects duplicate keys in YAML and JSON", () => {
    expect(yamlErrors("name: m\nbinaries:\n  v1: {}\nname: n\n").map(formatScenarioError)).toEqual([
      's.yaml: duplicate key "name" at line 4, column 1',
    ]);
    const r = parseScenario("s.json", '{"name": "m",\n "binaries": {"v1": {}},\n "name": "n"}');
    expect(r.ok ? [] : r.error.map(formatScenarioError)).toEqual(['s.json: duplicate key "name" at line 3, column 2']);
  });
  it("rejects several YAML documents in one file", () => {
    expect(yamlErrors("name: m\n---\nname: n\n")[0]?.message).toMatch(
      /^YAML syntax error: Source contains multiple documents/,
    );
  });
  it("names the line and column of a JSON syntax error", () => {
    const r = parseScenario("s.json", '{"name": "m",\n "binaries": {"v1": {}}\n "seed": 1}');
    expect(r.ok ? [] : r.error).toEqual([
      {
        file: "s.json",
        path: "",
        message: "JSON syntax error: Expected ',' or '}' after property value at line 3, column 2",
        line: 3,
        column: 2,
      },
    ]);
  });
  it("reads JSON input to the same model as YAML", () => {
    const yaml = parseScenario("s.yaml", "name: m\nbinaries:\n  v1: {}\nsteps:\n  - at: 3\n    stop: {node: val1}\n");
    const json = parseScenario(
      "s.json",
      JSON.stringify({ name: "m", binaries: { v1: {} }, steps: [{ at: 3, stop: { node: "val1" } }] }),
    );
    expect(yaml.ok && json.ok).toBe(true);
    if (yaml.ok && json.ok) expect({ ...json.value, file: "" }).toEqual({ ...yaml.value, file: "" });
  });
  it("reads YAML 1.2 scalars: yes, on and timestamps stay strings", () => {
    const r = parseScenario(
      "s.yml",
      [
        "name: m",
        "binaries: {v1: {}}",
        "chain: {genesisTime: 2026-02-01T00:00:00Z}",
        "steps:",
        "  - at: 2",
        "    submitProposal: {id: up, proposer: val1}",
        "  - on: {halt: any}",
        "    vote: {proposal: up, votes: {val1: yes}}",
      ].join("\n"),
    );
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.chain.genesisTime).toBe(Date.parse("2026-02-01T00:00:00Z"));
      expect(r.value.steps[1]?.action).toEqual({ kind: "vote", proposal: "up", votes: new Map([["val1", "yes"]]) });
    }
  });
  it("locates validation errors in YAML sources", () => {
    const errors = yamlErrors("name: m\nbinaries:\n  v1: {}\nsteps:\n  - at: 3\n    stop: {node: valx}\n");
    expect(errors).toEqual([
      { file: "s.yaml", path: "steps[0].stop.node", message: 'unknown node "valx"', line: 6, column: 12 },
    ]);
  });
  it("reports an empty YAML file and an unknown extension", () => {
    expect(yamlErrors("").map(formatScenarioError)).toEqual(["s.yaml: expected a map, got null"]);
    expect(yamlErrors("name: m", "s.toml").map(formatScenarioError)).toEqual([
      "s.toml: unsupported file type: expected .yaml, .yml or .json",
    ]);
  });
});

describe("defaults resolution", () => {
  it("fills proposal defaults from the resolved gov params and the proposer", () => {
    const s = loaded(
      withSteps(
        [
          submit("a"),
          submit("b", { expedited: true, title: "T" }),
          submit("c", { deposit: "" }),
          { at: 3, cancelProposal: { proposal: "b" } },
        ],
        { chain: { gov: { minDeposit: "7stake", expeditedMinDeposit: "9stake" } } },
      ),
    );
    const [a, b, c, cancel] = s.steps.map((st) => st.action);
    expect(a).toMatchObject({
      title: "a",
      summary: "a",
      metadata: "",
      expedited: false,
      deposit: [{ denom: "stake", amount: 7n }],
    });
    expect(b).toMatchObject({ title: "T", summary: "T", expedited: true, deposit: [{ denom: "stake", amount: 9n }] });
    expect(c).toMatchObject({ deposit: [] });
    expect(cancel).toEqual({ kind: "cancelProposal", proposal: "b", from: "val1" });
    expect(a).toMatchObject({
      messages: [{ kind: "softwareUpgrade", authority: govAuthority(), plan: { name: "v2", height: 20n, info: "" } }],
    });
  });

  it("defaults message authority to the gov account, or to the tx signer", () => {
    const s = loaded(
      withSteps(
        [
          {
            at: 2,
            tx: { from: "alice", messages: [{ cancelUpgrade: {} }, { cancelUpgrade: { authority: "chain1xyz" } }] },
          },
          { at: 2, authorityExec: { messages: [{ cancelUpgrade: {} }] } },
        ],
        { chain: { accounts: { alice: "1stake" } } },
      ),
    );
    expect(s.steps[0]?.action).toEqual({
      kind: "tx",
      from: "alice",
      messages: [
        { kind: "cancelUpgrade", authority: addressOfName("alice") },
        { kind: "cancelUpgrade", authority: "chain1xyz" },
      ],
    });
    expect(s.steps[1]?.action).toEqual({
      kind: "authorityExec",
      messages: [{ kind: "cancelUpgrade", authority: govAuthority() }],
    });
  });

  it("gives each validator its stake unless listed, after the listed accounts", () => {
    const s = loaded({
      ...MINIMAL,
      chain: {
        validators: [
          { name: "v-a", power: 10 },
          { name: "v-b", power: 20 },
        ],
        accounts: { alice: "5stake,3atom", "v-b": "1stake" },
      },
    });
    expect([...s.chain.accounts]).toEqual([
      [
        "alice",
        // Normalized as a genesis balance is: denoms sorted.
        [
          { denom: "atom", amount: 3n },
          { denom: "stake", amount: 5n },
        ],
      ],
      ["v-b", [{ denom: "stake", amount: 1n }]],
      ["v-a", [{ denom: "stake", amount: 1_000_000_000_000n }]],
    ]);
  });

  it("resolves binaries: base modules, overrides, sorted migrations, handler defaults", () => {
    const s = loaded({
      name: "m",
      binaries: {
        v1: {},
        v2: {
          modules: { gov: 2, foo: 1 },
          migrations: { gov: [3, 1] },
          upgrades: {
            v2: { storeUpgrades: { added: ["foo"], renamed: [{ from: "a", to: "b" }] } },
            bad: { handler: "fail" },
            worse: { handler: "fail", failMessage: "boom" },
          },
        },
      },
    });
    const v2 = s.binaries.get("v2");
    expect([...(v2?.modules ?? [])]).toEqual([
      ["bank", 1],
      ["foo", 1],
      ["gov", 2],
      ["upgrade", 1],
    ]);
    expect(v2?.migrations).toEqual(new Map([["gov", [1, 3]]]));
    expect(v2?.upgrades).toEqual(
      new Map([
        [
          "v2",
          {
            handler: "migrate",
            storeUpgrades: { added: ["foo"], renamed: [{ oldKey: "a", newKey: "b" }], deleted: [] },
          },
        ],
        ["bad", { handler: "fail", failMessage: "upgrade handler failed" }],
        ["worse", { handler: "fail", failMessage: "boom" }],
      ]),
    );
    expect(s.genesisBinary).toBe("v1");
    expect(loaded({ name: "m", binaries: { v1: {}, v2: {} }, genesisBinary: "v2" }).genesisBinary).toBe("v2");
  });

  it("resolves block time models", () => {
    const bt = (blockTime: unknown) => loaded({ ...MINIMAL, chain: { blockTime } }).chain.blockTime;
    expect(bt("1.5s")).toEqual({ kind: "fixed", intervalMs: 1500 });
    expect(bt({ min: "1s", max: "3s" })).toEqual({ kind: "uniform", minMs: 1000, maxMs: 3000 });
    expect(bt({ mean: "6s", stddev: "1s" })).toEqual({
      kind: "normal",
      meanMs: 6000,
      stddevMs: 1000,
      minMs: 1,
    });
    expect(bt({ mean: "6s", stddev: "0s", min: "5s", max: "7s" })).toEqual({
      kind: "normal",
      meanMs: 6000,
      stddevMs: 0,
      minMs: 5000,
      maxMs: 7000,
    });
  });

  it("resolves time triggers, halt triggers and the run block against genesis", () => {
    const s = loaded(
      withSteps(
        [
          { at: { time: "+50h" }, stop: { node: "val1" } },
          { at: { time: "2026-01-02T00:00:00Z" }, stop: { node: "val1" } },
          { on: { halt: "any" }, restart: { node: "val1", skipUpgradeHeights: [20] } },
          {
            on: { halt: "val1", kind: "upgrade-needed", height: 20 },
            delay: "10m",
            swapBinary: { node: "val1", binary: "v1" },
          },
        ],
        { run: { untilTime: "+100h", maxBlocks: 50 }, chain: { genesisTime: "2026-01-01T00:00:00Z" } },
      ),
    );
    expect(s.steps.map((st) => st.trigger)).toEqual([
      { kind: "time", timeMs: GENESIS + 50 * 3_600_000 },
      { kind: "time", timeMs: GENESIS + 86_400_000 },
      { kind: "halt", node: null, delayMs: 0 },
      { kind: "halt", node: "val1", haltKind: "upgrade-needed", height: 20, delayMs: 600_000 },
    ]);
    expect(s.steps[2]?.action).toEqual({ kind: "restart", node: "val1", skipUpgradeHeights: [20] });
    expect(s.steps[3]?.action).toEqual({ kind: "swapBinary", node: "val1", binary: "v1" });
    expect(s.steps.map((st) => st.index)).toEqual([0, 1, 2, 3]);
    expect(s.run).toEqual({ untilTime: GENESIS + 100 * 3_600_000, maxBlocks: 50 });
  });

  it("resolves expectations with bigint plan heights and maps", () => {
    const s = loaded({
      ...MINIMAL,
      steps: [{ label: "s1", at: 2, stop: { node: "val1" } }],
      expect: {
        height: 30,
        halted: { height: 20, nodes: ["val1"] },
        plan: { name: "v2", height: 20 },
        applied: { v2: 20 },
        moduleVersions: { gov: 2 },
        protocolVersion: 1,
        upgradeInfo: { val1: { name: "v2", height: "20", info: "i" } },
        stores: ["foo"],
        steps: { s1: { ok: false, error: "x" } },
        halts: [{ node: "val1", kind: "upgrade-needed" }],
        handlerRuns: { v2: 1 },
      },
    });
    expect(s.expect).toEqual({
      height: 30,
      halted: { height: 20, nodes: ["val1"] },
      plan: { name: "v2", height: 20n },
      applied: new Map([["v2", 20]]),
      moduleVersions: new Map([["gov", 2]]),
      protocolVersion: 1,
      upgradeInfo: new Map([["val1", { name: "v2", height: 20n, info: "i" }]]),
      stores: ["foo"],
      steps: new Map([["s1", { ok: false, error: "x" }]]),
      halts: [{ node: "val1", kind: "upgrade-needed" }],
      handlerRuns: new Map([["v2", 1]]),
    });
    expect(s.steps[0]?.label).toBe("s1");
  });

  it("reads options and the upgradeInfoWritable node option", () => {
    const s = loaded({
      ...MINIMAL,
      options: { expeditedFallbackVotes: "keep" },
      nodes: { val1: { upgradeInfoWritable: false } },
    });
    expect(s.options.expeditedFallbackVotes).toBe("keep");
    expect(s.nodes.get("val1")?.upgradeInfoWritable).toBe(false);
    expect(errorsOf({ ...MINIMAL, options: { expeditedFallbackVotes: "drop" } })).toEqual([
      's.json: options.expeditedFallbackVotes: expected one of "delete", "keep", got string "drop"',
    ]);
  });
});

describe("nodes and the default entry", () => {
  const doc = {
    name: "m",
    binaries: { v1: {}, v2: {}, v3: {} },
    chain: {
      validators: [
        { name: "val1", power: 60 },
        { name: "val2", power: 40 },
      ],
    },
    nodes: {
      default: {
        binary: "v2",
        skipUpgradeHeights: [5],
        sidecar: { enabled: true, delay: "30s", binaries: { up1: "v2", up2: "v2" } },
        upgradeInfoWritable: false,
      },
      val2: { sidecar: { enabled: false, binaries: { up2: "v3" } }, skipUpgradeHeights: [] },
      full1: { binary: "v3", upgradeInfoWritable: true },
    },
  };
  it("gives each validator a node, adds full nodes with power 0, and merges default under each", () => {
    const nodes = loaded(doc).nodes;
    expect([...nodes.keys()]).toEqual(["val1", "val2", "full1"]);
    expect(nodes.get("val1")).toEqual({
      name: "val1",
      validator: true,
      power: 60,
      binary: "v2",
      skipUpgradeHeights: [5],
      sidecar: {
        enabled: true,
        delayMs: 30_000,
        binaries: new Map([
          ["up1", "v2"],
          ["up2", "v2"],
        ]),
      },
      upgradeInfoWritable: false,
    });
    expect(nodes.get("val2")).toEqual({
      name: "val2",
      validator: true,
      power: 40,
      binary: "v2",
      skipUpgradeHeights: [],
      sidecar: {
        enabled: false,
        delayMs: 30_000,
        binaries: new Map([
          ["up1", "v2"],
          ["up2", "v3"],
        ]),
      },
      upgradeInfoWritable: false,
    });
    expect(nodes.get("full1")).toMatchObject({ validator: false, power: 0, binary: "v3", upgradeInfoWritable: true });
  });
  it("lets steps refer to full nodes and not to the default entry", () => {
    expect(errorsOf({ ...doc, steps: [{ at: 2, stop: { node: "full1" } }] })).toEqual([]);
    expect(errorsOf({ ...doc, steps: [{ at: 2, stop: { node: "default" } }] })).toEqual([
      's.json: steps[0].stop.node: unknown node "default"',
    ]);
  });
});

describe("smaller rules", () => {
  it("checks names, labels, powers and message counts", () => {
    expect(
      errorsOf({
        name: "m",
        binaries: { "bad name": {} },
        chain: { validators: [{ name: "val 1", power: 0 }] },
        steps: [
          { label: "", at: 2, tx: { from: "val1", messages: [] } },
          { at: 3, authorityExec: { messages: [] } },
        ],
      }),
    ).toEqual([
      's.json: binaries["bad name"]: invalid key "bad name": binary name must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, got "bad name"',
      's.json: chain.validators[0].name: validator name must match [A-Za-z0-9][A-Za-z0-9._-]{0,63}, got "val 1"',
      "s.json: chain.validators[0].power: must be ≥ 1, got 0",
      "s.json: steps[0].label: step label must not be empty",
      's.json: steps[0].tx.from: unknown account "val1"',
      "s.json: steps[0].tx.messages: must have at least 1 item",
      "s.json: steps[1].authorityExec.messages: must have at least 1 item",
    ]);
  });
  it("accepts a $schema key for editors", () => {
    expect(errorsOf({ $schema: "./schema.json", ...MINIMAL })).toEqual([]);
  });
  it("treats YAML warnings (unknown tags) as errors", () => {
    expect(yamlErrors("name: !!weird m\nbinaries: {v1: {}}\n").map(formatScenarioError)).toEqual([
      "s.yaml: YAML syntax error: Unresolved tag: tag:yaml.org,2002:weird at line 1, column 7",
    ]);
  });
  it("refuses alias bombs instead of expanding them", () => {
    const lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 8; i++)
      lines.push(
        `${"abcdefgh"[i]}: &${"abcdefgh"[i]} [${Array(10)
          .fill(`*${"abcdefgh"[i - 1]}`)
          .join(", ")}]`,
      );
    const errors = yamlErrors(`name: m\nbinaries: {v1: {}}\n${lines.join("\n")}\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(/alias/i);
  });
});
