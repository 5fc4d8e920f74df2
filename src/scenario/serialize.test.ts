import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatScenarioError } from "./errors.js";
import { parseScenario } from "./load.js";
import type { ScenarioDocument } from "./schema.js";
import { scenarioToYaml } from "./serialize.js";
import { parseSource } from "./source.js";

const RICH: ScenarioDocument = {
  expect: {
    height: 30,
    plan: null,
    halts: [{ node: "val1", kind: "upgrade-needed" }],
    steps: { "vote-1": { ok: true } },
  },
  steps: [
    {
      submitProposal: {
        id: "up",
        proposer: "val1",
        title: "Upgrade: v2",
        summary: "yes",
        metadata: '{"title":"x"}',
        deposit: "10000000stake",
        messages: [{ softwareUpgrade: { name: "v2", height: "9223372036854775807", info: "null" } }],
      },
      at: 2,
    },
    { vote: { proposal: "up", votes: { val1: "yes", val2: "no_with_veto" } }, label: "vote-1", at: { time: "+1h" } },
    { swapBinary: { node: "val1", binary: "v2" }, delay: "5m", on: { halt: "any", kind: "upgrade-needed" } },
    { at: 40, expect: { upgradeInfo: { val1: { name: "v2", height: 21 } }, halted: false } },
  ],
  name: "rich",
  description: "multi\nline: text",
  seed: 7,
  chain: {
    chainId: "chain-7",
    genesisTime: "2026-03-01T00:00:00Z",
    blockTime: { mean: "6s", stddev: "500ms" },
    gov: { quorum: "0.4", votingPeriod: "1h", burnVoteVeto: false },
    validators: [
      { name: "val1", power: 70 },
      { name: "val2", power: 30 },
    ],
    accounts: { alice: "5stake,1atom" },
  },
  binaries: {
    v1: {},
    v2: { modules: { foo: 1 }, upgrades: { v2: { handler: "migrate", storeUpgrades: { added: ["foo"] } } } },
  },
  nodes: { default: { sidecar: { enabled: true, delay: "30s" } }, full1: { upgradeInfoWritable: false } },
  options: { expeditedFallbackVotes: "keep" },
  run: { maxBlocks: 100 },
};

function reread(text: string): unknown {
  const src = parseSource("x.yaml", text);
  if (!src.ok) throw new Error(src.error.map(formatScenarioError).join("\n"));
  return src.value.data;
}

describe("scenarioToYaml", () => {
  it("writes YAML the loader accepts and reads back to the same document", () => {
    const text = scenarioToYaml(RICH);
    expect(reread(text)).toEqual(RICH);
    const loaded = parseScenario("x.yaml", text);
    expect(loaded.ok ? [] : loaded.error.map(formatScenarioError)).toEqual([]);
    const direct = parseScenario("x.json", JSON.stringify(RICH));
    if (loaded.ok && direct.ok) expect({ ...loaded.value, file: "" }).toEqual({ ...direct.value, file: "" });
  });

  it("writes keys in canonical order: top level as the format lists them, steps as label, trigger, delay, action", () => {
    const text = scenarioToYaml(RICH);
    const topLevel = text
      .split("\n")
      .filter((l) => /^[a-zA-Z$]/.test(l))
      .map((l) => l.split(":")[0]);
    expect(topLevel).toEqual([
      "name",
      "description",
      "seed",
      "chain",
      "binaries",
      "nodes",
      "options",
      "steps",
      "run",
      "expect",
    ]);
    expect(text).toContain("  - label: vote-1\n    at:\n      time: +1h\n    vote:");
    expect(text).toContain("  - on:\n      halt: any\n      kind: upgrade-needed\n    delay: 5m\n    swapBinary:");
  });

  it("quotes strings that would read as other types and drops undefined keys", () => {
    const text = scenarioToYaml({
      name: "q",
      description: undefined,
      binaries: { v1: {} },
      steps: [{ at: 2, submitProposal: { id: "p", proposer: "val1", title: "123", summary: "true", metadata: "~" } }],
    });
    expect(text).not.toContain("description");
    expect(reread(text)).toEqual({
      name: "q",
      binaries: { v1: {} },
      steps: [{ at: 2, submitProposal: { id: "p", proposer: "val1", title: "123", summary: "true", metadata: "~" } }],
    });
  });

  it("writes a header as comment lines the loader ignores", () => {
    const text = scenarioToYaml({ name: "h", binaries: { v1: {} } }, { header: "counterexample\nseed: 42" });
    expect(text.startsWith("# counterexample\n# seed: 42\n")).toBe(true);
    expect(parseScenario("h.yaml", text).ok).toBe(true);
  });

  it("round-trips arbitrary strings and int64 plan heights", () => {
    const int64 = fc
      .bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })
      .map((b) =>
        b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b.toString(),
      );
    const text = fc.string({ unit: "binary", maxLength: 40 });
    // `name` and `label` are keys below (binaries.v1.upgrades, expect.proposals), where `__proto__` is not allowed
    // (docs/scenario-format.md §2; the next test).
    const key = (s: string) => s !== "__proto__";
    fc.assert(
      fc.property(
        text,
        text,
        text.filter(key),
        text,
        fc.string({ unit: "binary", minLength: 1, maxLength: 20 }).filter(key),
        int64,
        (title, summary, name, info, label, height) => {
          const doc: ScenarioDocument = {
            name: "prop",
            description: info,
            binaries: { v1: { upgrades: { [name]: { handler: "fail", failMessage: summary } } } },
            steps: [
              {
                label,
                at: 2,
                submitProposal: {
                  id: label,
                  proposer: "val1",
                  title,
                  summary,
                  metadata: info,
                  messages: [{ softwareUpgrade: { name, height, info } }],
                },
              },
            ],
            expect: { proposals: { [label]: "passed" }, plan: { name, height, info } },
          };
          const yaml = scenarioToYaml(doc);
          expect(reread(yaml)).toEqual(doc);
          const loaded = parseScenario("p.yaml", yaml);
          expect(loaded.ok ? [] : loaded.error.map(formatScenarioError)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("writes a __proto__ key as it is, which the loader then rejects by its path", () => {
    const doc: ScenarioDocument = {
      name: "proto",
      binaries: { v1: {} },
      steps: [
        {
          label: "__proto__",
          at: 2,
          submitProposal: {
            id: "__proto__",
            proposer: "val1",
            messages: [{ softwareUpgrade: { name: "__proto__", height: 9 } }],
          },
        },
      ],
      expect: { proposals: { ["__proto__"]: "passed" } },
    };
    const yaml = scenarioToYaml(doc);
    expect(yaml).toContain("\n  proposals:\n    __proto__: passed\n");
    const loaded = parseScenario("p.yaml", yaml);
    expect(loaded.ok ? [] : loaded.error.map(formatScenarioError)).toEqual([
      'p.yaml: expect.proposals.__proto__: key "__proto__" is not allowed',
    ]);
  });
});
