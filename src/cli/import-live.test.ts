import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleCli, exited, getJson, initTestHome, serveScenario, spawnCli, waitFor } from "../../test/kit/devnet.js";
import { nameToAddressBytes } from "../core/address.js";
import { toHex } from "../core/bytes.js";
import { parseDuration } from "../core/go/duration.js";
import { type Profile, parseProfile } from "../scenario/profile.js";
import { IMPORT_EXIT, runImport } from "./import.js";

// `chainsim import` from chainsim's own nodes over real HTTP: `chainsim serve` (REST and --rpc-address) of a scenario
// whose block-time model, validators, gov params and pending plan are known, and a running devnet.
const dir = mkdtempSync(join(tmpdir(), "chainsim-import-live-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const SCENARIO = `name: import-served
chain:
  chainId: served-import-1
  blockTime: { mean: 6s, stddev: 1500ms, min: 1s }
  validators:
    - { name: alpha, power: 300 }
    - { name: beta, power: 200 }
    - { name: gamma, power: 100 }
  gov: { maxDepositPeriod: 36h, votingPeriod: 30h, expeditedVotingPeriod: 12h, quorum: "0.4", threshold: "0.55" }
binaries:
  v1: { modules: { foo: 1 } }
steps:
  - at: 2
    submitProposal:
      id: upgrade
      proposer: alpha
      messages:
        - softwareUpgrade: { name: v2, height: 80000, info: '{"binaries":{"any":"file:///bin/v2"}}' }
  - at: 3
    vote: { proposal: upgrade, votes: { alpha: yes, beta: yes, gamma: yes } }
  - at: 19500
    submitProposal: { id: cancel, proposer: beta, messages: [{ cancelUpgrade: {} }] }
run: { untilHeight: 20000 }
`;

const ms = (d: string) => {
  const r = parseDuration(d);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

async function importTo(rest: string, rpc: string, history: string) {
  const out = join(dir, `${history}-${children.length}.profile.yaml`);
  const errs: string[] = [];
  const code = await runImport({ rest, rpc, history, out }, { out: () => {}, err: (s) => errs.push(s) });
  // Without --json, progress goes to stderr every 100 requests, and nothing else does.
  expect(
    errs.filter((l) => !/^import: [0-9]+00 requests$/.test(l)),
    errs.join("\n"),
  ).toEqual([]);
  expect(new Set(errs).size).toBe(errs.length);
  expect(code).toBe(IMPORT_EXIT.ok);
  const p = parseProfile(out, readFileSync(out, "utf8"));
  if (!p.ok) throw new Error(JSON.stringify(p.error));
  return p.value as Profile;
}

describe("chainsim import from chainsim's own nodes", () => {
  it("recovers a served scenario's powers, gov periods and quorum, pending plan exactly, mean block time within 5%", async () => {
    const file = join(dir, "served.yaml");
    writeFileSync(file, SCENARIO);
    const served = await serveScenario(file, { dir, children });
    const p = await importTo(served.rest, served.rpc, "12h");
    expect(p.source.chainId).toBe("served-import-1");
    expect(p.at.height).toBe(20_000);
    // No staking module: validators are named by their consensus address (sha256(name)[0:20] on a chainsim chain).
    const address = (name: string) => toHex(nameToAddressBytes(name)).toUpperCase();
    expect(p.chain.validators).toEqual([
      { name: address("alpha"), power: 300 },
      { name: address("beta"), power: 200 },
      { name: address("gamma"), power: 100 },
    ]);
    expect(p.chain.gov).toMatchObject({
      maxDepositPeriod: "36h0m0s",
      votingPeriod: "30h0m0s",
      expeditedVotingPeriod: "12h0m0s",
      quorum: "0.4",
      threshold: "0.55",
    });
    expect(p.plan).toEqual({ name: "v2", height: 80_000, info: '{"binaries":{"any":"file:///bin/v2"}}' });
    expect(p.proposals!.map((x) => [x.id, x.status, x.messages])).toEqual([[2, "voting", [{ cancelUpgrade: {} }]]]);
    expect(p.chain.modules).toEqual({ bank: 1, foo: 1, gov: 1, upgrade: 1 });
    const mean = ms(p.history!.meanBlockTime.window);
    expect(Math.abs(mean - 6_000) / 6_000).toBeLessThan(0.05);
    expect(Date.parse(p.at.time) - Date.parse(p.history!.from.time)).toBeGreaterThan(11.5 * 3_600_000);
    served.child.kill("SIGTERM");
    expect(await exited(served.child)).toBe(0);
  }, 120_000);

  it("imports a running devnet (chainsim init + start): its chain id, validator, gov periods and block times", async () => {
    const cli = await bundleCli("main");
    const home = mkdtempSync(join(dir, "devnet-"));
    const t = await initTestHome(home, { votingPeriod: "5s", depositPeriod: "10s" });
    const node = spawnCli(cli, ["start", "--home", home, "--binary", "v1", "--block-time", "200ms"]);
    children.push(node.child);
    await waitFor(
      async () => {
        const s = await getJson(`${t.rpcUrl}/status`);
        return Number(s?.body.result.sync_info.latest_block_height ?? 0) >= 25 ? true : undefined;
      },
      60_000,
      `the devnet's first blocks: ${node.output()}`,
    );
    const p = await importTo(t.restUrl, t.rpcUrl, "1h");
    expect(p.source.chainId).toBe("devnet-test");
    expect(p.chain.validators!.map((v) => v.power)).toEqual([100]);
    expect(p.chain.gov).toMatchObject({ maxDepositPeriod: "10s", votingPeriod: "5s" });
    expect(p.plan).toBeNull();
    // The whole chain is younger than the window: the history starts at its first stored block, and its mean is
    // the mean between the first and the last header the node serves.
    const h = p.history!;
    const first = await getJson(`${t.rpcUrl}/blockchain?minHeight=${h.from.height}&maxHeight=${h.from.height}`);
    const last = await getJson(`${t.rpcUrl}/blockchain?minHeight=${h.to.height}&maxHeight=${h.to.height}`);
    const timeOf = (r: typeof first) => Date.parse(r!.body.result.block_metas[0].header.time);
    const exact = (timeOf(last) - timeOf(first)) / (h.to.height - h.from.height);
    expect(Math.abs(ms(h.meanBlockTime.window) - exact)).toBeLessThan(1);
    expect(h.from.height).toBe(1);
    node.child.kill("SIGTERM");
    await exited(node.child);
  }, 120_000);
});
