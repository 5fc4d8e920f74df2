import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatScenarioError } from "./errors.js";
import { parseProfile, profileToYaml } from "./profile.js";

const SAMPLE = "test/fixtures/profiles/sample.profile.yaml";

describe("rehearsal profile", () => {
  it("reads a profile and writes YAML that reads back to the same value", () => {
    const r = parseProfile(SAMPLE, readFileSync(SAMPLE, "utf8"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.at.height).toBe(120000);
    expect(r.value.chain.validators?.map((v) => v.power)).toEqual([100, 50]);
    expect(r.value.proposals?.[0]?.messages).toHaveLength(3);
    const again = parseProfile("again.yaml", profileToYaml(r.value));
    expect(again.ok && again.value).toEqual(r.value);
  });

  it("names the file and the path of every error, one line each", () => {
    const r = parseProfile(
      "b.yaml",
      "profile: 1\nsource: {namespace: foo, chainId: x}\nat: {height: 0, time: x}\nchain: {modules: {a: 0}}\nplan: null\n",
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const lines = r.error.map(formatScenarioError);
    expect(lines.some((l) => l.includes("b.yaml") && l.includes("source.namespace"))).toBe(true);
    expect(lines.some((l) => l.includes("at.height"))).toBe(true);
    expect(lines.some((l) => l.includes("chain.modules.a"))).toBe(true);
    for (const l of lines) expect(l).not.toContain("\n");
  });

  it("refuses another format version", () => {
    const text = readFileSync(SAMPLE, "utf8").replace("profile: 1", "profile: 2");
    expect(parseProfile(SAMPLE, text).ok).toBe(false);
  });
});
