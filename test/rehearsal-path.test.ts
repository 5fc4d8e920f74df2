import { type ChildProcess, execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { parseScenario } from "../src/scenario/load.js";
import { type Profile, parseProfile } from "../src/scenario/profile.js";
import { buildSimulation } from "../src/scenario/simulate.js";
import { exited, serveScenario } from "./kit/devnet.js";

// The rehearsal's whole path (issue #23, part 7), each command a real process over loopback, as a chain team runs it:
// `chainsim serve` a chain whose block times, validators, gov params, pending plan and voting proposal are known →
// `chainsim import` it → a scenario `from:` the profile → `chainsim run` (its expectations pass) → `chainsim serve`
// that replay and import it again → `chainsim explore upgrade-height` (its height lands where the served chain
// really is 48 h later) → `chainsim preflight` (a plan inside the voting period, one replacing the pending plan, a
// clean one).
const dir = mkdtempSync(join(tmpdir(), "chainsim-rehearsal-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const HOUR_MS = 3_600_000;
/** The served chain's height at import: 26.7 h of 6 s blocks, so a day of history. */
const SERVED_HEIGHT = 16_000;
const PLAN_HEIGHT = 90_000;

const SERVED = `name: rehearsal-served
chain:
  chainId: rehearsal-served-1
  blockTime: { mean: 6s, stddev: 1500ms, min: 1s }
  validators: [{ name: alpha, power: 300 }, { name: beta, power: 200 }, { name: gamma, power: 100 }]
  gov: { maxDepositPeriod: 12h, votingPeriod: 12h, expeditedVotingPeriod: 4h, quorum: "0.4", threshold: "0.55" }
binaries:
  v1: { modules: { foo: 1 } }
steps:
  - at: 2
    submitProposal:
      id: upgrade
      proposer: alpha
      messages: [{ softwareUpgrade: { name: v2, height: ${PLAN_HEIGHT}, info: '{"binaries":{"any":"file:///bin/v2"}}' } }]
  - at: 3
    vote: { proposal: upgrade, votes: { alpha: yes, beta: yes, gamma: yes } }
  - at: ${SERVED_HEIGHT - 200}
    submitProposal: { id: cancel, proposer: beta, messages: [{ cancelUpgrade: {} }] }
run: { untilHeight: ${SERVED_HEIGHT} }
`;

const CLI = ["bin/chainsim.js"];
const sh = promisify(execFile);

/** Runs chainsim to completion: its exit code and output. */
async function chainsim(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await sh(process.execPath, [...CLI, ...args], { timeout: 300_000, maxBuffer: 64 << 20 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** `chainsim serve` of a scenario with REST and RPC on free loopback ports; resolves with its endpoints. */
const serve = (scenario: string, ...extra: string[]) =>
  serveScenario(scenario, { dir, children, extra, timeoutMs: 120_000 });

/** `chainsim import` of a served node into `out`; the profile read back. */
async function importProfile(ends: { rest: string; rpc: string }, history: string, out: string): Promise<Profile> {
  const r = await chainsim("import", "--rest", ends.rest, "--rpc", ends.rpc, "--history", history, "--out", out);
  expect(r.code, r.stderr).toBe(0);
  const p = parseProfile(out, readFileSync(out, "utf8"));
  if (!p.ok) throw new Error(JSON.stringify(p.error));
  return p.value;
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  expect(await exited(child)).toBe(0);
}

/** The served chain itself, continued (same scenario, same seed as `serve`): the time it commits block h. */
function servedTimeOf(h: number): number {
  const s = parseScenario("served.yaml", SERVED);
  if (!s.ok) throw new Error(JSON.stringify(s.error));
  const sim = buildSimulation(s.value);
  if (!sim.ok) throw new Error(sim.error);
  sim.value.run({ untilHeight: h, maxBlocks: h });
  expect(sim.value.height).toBe(h);
  return sim.value.lastBlockTimeMs;
}

interface PreflightJson {
  readonly findings: readonly { kind: string; message: string; rule: string }[];
  readonly votingEnd: { heights: { p5: number; p95: number } };
  readonly cancelWindowHeight: number;
}

async function preflight(profile: string, height: number): Promise<{ code: number; report: PreflightJson }> {
  const r = await chainsim("preflight", "--profile", profile, "--name", "v3", "--height", String(height), "--json");
  expect(r.stderr).toBe("");
  return { code: r.code, report: JSON.parse(r.stdout) as PreflightJson };
}

describe("the rehearsal path: serve → import → from → run → explore → preflight", () => {
  it("imports a served chain, replays it from the profile, plans a height 48 h ahead and pre-flights plans", async () => {
    // 1. Serve the chain and import it.
    const servedFile = join(dir, "served.yaml");
    writeFileSync(servedFile, SERVED);
    const served = await serve(servedFile);
    const profileFile = join(dir, "p.yaml");
    const p = await importProfile(served, "1d", profileFile);
    await stop(served.child);
    expect(p.at.height).toBe(SERVED_HEIGHT);
    expect(p.plan).toMatchObject({ name: "v2", height: PLAN_HEIGHT });
    const cancel = p.proposals!.find((q) => q.status === "voting");
    expect(cancel?.messages).toEqual([{ cancelUpgrade: {} }]);
    expect(p.chain.blockTime).toMatchObject({ drift: { anchor: { height: SERVED_HEIGHT } } });
    const names = p.chain.validators!.map((v) => v.name);
    expect(names).toHaveLength(3);

    // 2. A scenario from the profile: every validator votes yes on the imported cancel; it passes at its imported
    //    voting end and the pending plan is gone. `chainsim run` checks it.
    const votingEnd = Date.parse(cancel!.votingEndTime!);
    const until = SERVED_HEIGHT + Math.ceil((votingEnd - Date.parse(p.at.time) + 13 * HOUR_MS) / 6_000);
    const fromFile = join(dir, "from.yaml");
    const votes = names.map((n) => `"${n}": yes`).join(", ");
    writeFileSync(
      fromFile,
      [
        `from: ./p.yaml`,
        `name: rehearsal-from`,
        `binaries: { v1: { modules: { foo: 1 } } }`,
        `steps:`,
        `  - at: ${SERVED_HEIGHT + 1}`,
        `    vote: { proposal: proposal-${cancel!.id}, votes: { ${votes} } }`,
        `expect: { proposals: { proposal-${cancel!.id}: passed }, plan: null, halted: false }`,
        `run: { untilHeight: ${until} }`,
        ``,
      ].join("\n"),
    );
    const traces = [join(dir, "t1.jsonl"), join(dir, "t2.jsonl")];
    const runs = [];
    for (const t of traces) runs.push(await chainsim("run", fromFile, "--json", "--trace", t));
    for (const r of runs) expect(r.code, r.stdout + r.stderr).toBe(0);
    // Replays are byte-for-byte deterministic: the same trace, line for line.
    expect(readFileSync(traces[0]!, "utf8")).toBe(readFileSync(traces[1]!, "utf8"));
    expect(JSON.parse(runs[0]!.stdout)).toMatchObject({ passed: true, final: { plan: null, height: until } });

    // 3. Serve the replay (a chain from the profile) and import it again: no plan is left.
    const replayed = await serve(fromFile);
    const p2File = join(dir, "p2.yaml");
    const p2 = await importProfile(replayed, "12h", p2File);
    await stop(replayed.child);
    expect(p2.at.height).toBe(until);
    expect(p2.plan).toBeNull();
    expect(p2.proposals ?? []).toEqual([]);

    // 4. explore upgrade-height: the recommended height's median halt time is 48 h after the import, and the served
    //    chain, continued, commits that height within 3% of 48 h (as its model's mean says).
    const explored = await chainsim(
      "explore",
      "upgrade-height",
      "--profile",
      profileFile,
      "--target",
      "+48h",
      "--json",
    );
    expect(explored.code, explored.stderr).toBe(0);
    const plan = JSON.parse(explored.stdout) as { recommendedHeight: number; haltMs: { p50: number } };
    const atMs = Date.parse(p.at.time);
    const target = 48 * HOUR_MS;
    expect(Math.abs(plan.haltMs.p50 - atMs - target) / target).toBeLessThan(0.01);
    const H = plan.recommendedHeight;
    const truth = servedTimeOf(H) - atMs;
    expect(Math.abs(truth - target) / target).toBeLessThan(0.03);
    expect(Math.abs((H - SERVED_HEIGHT) * 6_000 - target) / target).toBeLessThan(0.03);

    // 5. preflight. Inside the voting period (12 h of blocks is ~7,200): exit 1, naming the voting period.
    const early = await preflight(profileFile, SERVED_HEIGHT + 3_000);
    expect(early.code).toBe(1);
    const timing = early.report.findings.find((f) => f.kind === "timing");
    expect(timing?.message).toContain("the voting period (12h0m0s)");
    expect(timing?.rule).toContain("voting_period");
    // Beyond the cancel window (2 × (12 h + 12 h) + 24 h = 72 h): only the pending plan it would replace, named.
    const late = await preflight(profileFile, SERVED_HEIGHT + 60_000);
    expect(late.code).toBe(1);
    expect(late.report.findings.map((f) => f.kind)).toEqual(["conflict"]);
    expect(late.report.findings[0]?.message).toContain(`plan "v2" at height ${PLAN_HEIGHT}`);
    expect(late.report.findings[0]?.message).toContain("would replace it");
    // The same plan on the replayed chain, whose plan was cancelled: clean.
    const clean = await preflight(p2File, until + 60_000);
    expect(clean.report.findings).toEqual([]);
    expect(clean.code).toBe(0);
    expect(clean.report.cancelWindowHeight).toBeLessThanOrEqual(until + 60_000);
  }, 600_000);
});
