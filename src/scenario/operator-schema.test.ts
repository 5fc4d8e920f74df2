import { describe, expect, it } from "vitest";
import { formatScenarioError } from "./errors.js";
import { parseScenario } from "./load.js";

const doc = (operator: unknown, extra: object = {}) => ({
  name: "op",
  chain: { validators: [{ name: "val1", power: 1 }] },
  binaries: { v1: {}, v2: { upgrades: { v2: {} } } },
  nodes: { default: { operator }, ...extra },
});
const errors = (operator: unknown, extra: object = {}) => {
  const r = parseScenario("ops.json", JSON.stringify(doc(operator, extra)));
  return r.ok ? [] : r.error.map(formatScenarioError);
};

describe("bad operator input: one line naming the key and the file", () => {
  it.each([
    [
      { manual: { reaction: { lognormal: { median: "-5m", p90: "1h" } } } },
      "nodes.default.operator.manual.reaction.lognormal.median: must not be negative",
    ],
    [
      { manual: { reaction: { lognormal: { median: "0s", p90: "1h" } } } },
      "nodes.default.operator.manual.reaction.lognormal.median: must be positive",
    ],
    [
      { manual: { reaction: { lognormal: { median: "1h", p90: "30m" } } } },
      "nodes.default.operator.manual.reaction.lognormal.p90: must not be below the median 1h",
    ],
    [
      { manual: { reaction: "1m", calendar: { timeZone: "Mars/Olympus" } } },
      'nodes.default.operator.manual.calendar.timeZone: unknown time zone "Mars/Olympus"',
    ],
    [
      { manual: { reaction: "1m", calendar: { timeZone: "UTC", workingHours: "17:00-09:00" } } },
      "nodes.default.operator.manual.calendar.workingHours: must be",
    ],
    [{ cosmovisor: { shutdownGrace: "-1s" } }, "nodes.default.operator.cosmovisor.shutdownGrace: must not be negative"],
    [
      { cosmovisor: { preUpgrade: { maxRetries: 101 } } },
      "nodes.default.operator.cosmovisor.preUpgrade.maxRetries: must be ≤ 100, got 101",
    ],
    [{ manual: { reaction: "1m", absent: 1.5 } }, "nodes.default.operator.manual.absent"],
    [
      { manual: { reaction: "1m", early: { lead: "-30m" } } },
      'nodes.default.operator.manual.early.lead: must not be negative, got "-30m"',
    ],
    [
      { cosmovisor: { addUpgrade: { lead: { lognormal: { median: "1h", p90: "10m" } } } } },
      "nodes.default.operator.cosmovisor.addUpgrade.lead.lognormal.p90: must not be below the median 1h",
    ],
    [
      { manual: { reaction: "1m", early: { lead: "1h", probability: 2 } } },
      "nodes.default.operator.manual.early.probability: must be ≤ 1, got 2",
    ],
    [{ cosmovisor: { addUpgrade: { probability: 1 } } }, "nodes.default.operator.cosmovisor.addUpgrade.lead"],
  ])("%j", (operator, message) => {
    const e = errors(operator);
    expect(e).toHaveLength(1);
    expect(e[0]).toContain("ops.json");
    expect(e[0]).toContain(message);
  });

  it("resolves cosmovisor's defaults and merges a node's keys over the default's", () => {
    const r = parseScenario(
      "ops.json",
      JSON.stringify(
        doc(
          { cosmovisor: { backup: { dataSizeGiB: 1, throughputMiBPerS: 1024 } }, manual: { reaction: "1h" } },
          { val1: { operator: { cosmovisor: { unsafeSkipBackup: true }, manual: false } } },
        ),
      ),
    );
    if (!r.ok) throw new Error(r.error.map(formatScenarioError).join("\n"));
    const op = r.value.nodes.get("val1")?.operator;
    expect(op?.manual).toBeUndefined();
    expect(op?.cosmovisor?.addUpgrade).toBeUndefined();
    expect(op?.cosmovisor).toMatchObject({
      pollIntervalMs: 300,
      restartAfterUpgrade: true,
      shutdownGraceMs: 0,
      restartDelayMs: 0,
      unsafeSkipBackup: true,
      backup: { kind: "fixed", ms: 1000 },
      preUpgradeExitCodes: [1],
      preUpgradeMaxRetries: 0,
      onFailure: "stall",
    });
  });

  it("resolves an early action with probability 1 unless given", () => {
    const r = parseScenario(
      "ops.json",
      JSON.stringify(
        doc({
          cosmovisor: { addUpgrade: { lead: "20m" } },
          manual: { reaction: "1h", early: { lead: "1h", probability: 0.25 } },
        }),
      ),
    );
    if (!r.ok) throw new Error(r.error.map(formatScenarioError).join("\n"));
    const op = r.value.nodes.get("val1")?.operator;
    expect(op?.cosmovisor?.addUpgrade).toEqual({ probability: 1, lead: { kind: "fixed", ms: 20 * 60_000 } });
    expect(op?.manual?.early).toEqual({ probability: 0.25, lead: { kind: "fixed", ms: 60 * 60_000 } });
  });
});
