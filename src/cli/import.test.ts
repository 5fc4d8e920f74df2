import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type Fault,
  FIXTURE_CHAIN_ID,
  FIXTURE_PLAN,
  fixtureValidators,
  startFixtureNode,
} from "../../test/kit/cosmos-node.js";
import { parseDuration } from "../core/go/duration.js";
import { type Profile, parseProfile } from "../scenario/profile.js";
import { IMPORT_EXIT, runImport } from "./import.js";

// `chainsim import` over real HTTP on loopback, against a fixture node in the reference's exact response shapes
// (CometBFT v0.38 RPC, Cosmos SDK v0.50 REST under the `cosmos` namespace).
const dir = mkdtempSync(join(tmpdir(), "chainsim-import-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GENESIS_MS = Date.UTC(2026, 0, 1);
/** A chain whose block time drifts: 5.5 s for the first half of the blocks, then 6.5 s, with ±0.5 s of jitter. */
const driftingTime = (split: number) => (h: number) => {
  let t = GENESIS_MS;
  const jitter = (k: number) => ((k * 7_919) % 1_001) - 500;
  t += Math.min(h, split) * 5_500 + Math.max(0, h - split) * 6_500;
  return t + jitter(h);
};

async function importFrom(url: string, extra: string[] = [], out = join(dir, `p${Math.random()}.yaml`)) {
  const lines = { out: [] as string[], err: [] as string[] };
  const flags: Record<string, string | boolean> = { rest: url, rpc: url, namespace: "cosmos", out, json: true };
  for (let i = 0; i < extra.length; i += 2) flags[extra[i]!] = extra[i + 1]!;
  const code = await runImport(flags, { out: (s) => lines.out.push(s), err: (s) => lines.err.push(s) });
  const profile = existsSync(out) && statSync(out).isFile() ? parseProfile(out, readFileSync(out, "utf8")) : undefined;
  if (profile !== undefined && !profile.ok) throw new Error(JSON.stringify(profile.error));
  return { code, stdout: lines.out, err: lines.err, out, profile: profile?.value as Profile | undefined };
}

const ms = (d: string) => {
  const r = parseDuration(d);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};

describe("chainsim import from a node in the reference's shapes (cosmos namespace)", () => {
  it("reads validators with monikers, every gov param, the upgrade state, pending proposals and the history", async () => {
    const blocks = 2 * 14_400;
    const timeMs = driftingTime(blocks - 3_000);
    const node = await startFixtureNode({ blocks, timeMs, validators: 150 });
    try {
      const r = await importFrom(node.url, ["history", "36h"]);
      expect(r.err, r.err.join("\n")).toEqual([]);
      expect(r.code).toBe(IMPORT_EXIT.ok);
      const p = r.profile!;
      expect(p.source).toEqual({ rest: node.url, rpc: node.url, namespace: "cosmos", chainId: FIXTURE_CHAIN_ID });
      expect(p.at).toEqual({ height: blocks, time: new Date(timeMs(blocks)).toISOString().replace(".000Z", "Z") });
      // Validators: RPC powers in the node's order, monikers from staking (two pages each), made entity names.
      const vals = fixtureValidators(150);
      expect(p.chain.validators!.map((v) => v.power)).toEqual(vals.map((v) => v.power));
      expect(p.chain.validators!.slice(0, 4).map((v) => v.name)).toEqual([
        "Coinbase-Cloud",
        "coinbase-cloud-2",
        vals[2]!.address,
        "validator-3",
      ]);
      expect(new Set(p.chain.validators!.map((v) => v.name)).size).toBe(150);
      expect(p.chain.gov).toEqual({
        minDeposit: "250000000uatom",
        expeditedMinDeposit: "500000000uatom",
        maxDepositPeriod: "336h0m0s",
        votingPeriod: "336h0m0s",
        expeditedVotingPeriod: "168h0m0s",
        quorum: "0.4",
        threshold: "0.5",
        expeditedThreshold: "0.667",
        vetoThreshold: "0.334",
        minInitialDepositRatio: "0.25",
        minDepositRatio: "0.01",
        proposalCancelRatio: "0.5",
        proposalCancelDest: "",
        burnVoteQuorum: false,
        burnProposalDepositPrevote: false,
        burnVoteVeto: true,
      });
      expect(p.chain.modules).toEqual({ auth: 5, gov: 5, upgrade: 2, consensus: 1 });
      expect(p.plan).toEqual({ name: FIXTURE_PLAN.name, height: 23_000_000, info: FIXTURE_PLAN.info });
      // v18 from the passed proposal; v17, reused by a pending legacy proposal, was applied too.
      expect(p.applied).toEqual([
        { name: "v17", height: 40 },
        { name: "v18", height: 50 },
      ]);
      expect(p.proposals).toEqual([
        {
          id: 7,
          status: "voting",
          expedited: false,
          proposer: "cosmos1esweepj7swqv94txm3eyce3kjpg6e74rammzdz",
          title: "proposal 7",
          submitTime: "2026-01-08T08:00:00.123Z",
          depositEndTime: "2026-01-22T08:00:00.123Z",
          votingStartTime: "2026-01-08T09:00:00Z",
          votingEndTime: "2026-01-22T09:00:00Z",
          totalDeposit: "250000000uatom",
          tally: { yes: "600000000", abstain: "1000", no: "25", noWithVeto: "0" },
          messages: [{ softwareUpgrade: { name: "v20", height: 24_000_000, info: "" } }, { cancelUpgrade: {} }],
        },
        {
          id: 8,
          status: "deposit",
          expedited: false,
          proposer: "cosmos1esweepj7swqv94txm3eyce3kjpg6e74rammzdz",
          title: "proposal 8",
          submitTime: "2026-01-08T08:00:00.123Z",
          depositEndTime: "2026-01-22T08:00:00.123Z",
          totalDeposit: "250000000uatom",
          messages: [
            { other: "/cosmos.bank.v1beta1.MsgSend" },
            { softwareUpgrade: { name: "v17", height: 30_000_000, info: "" } },
          ],
        },
      ]);
      // History: the window's mean is the exact mean between its first and last samples; the last hour's mean is
      // the recent regime (6.5 s), not the window's average.
      const h = p.history!;
      expect(h.to).toEqual(p.at);
      // The fitted drift model, anchored at the imported block with the recent rate.
      const drift = (p.chain.blockTime as { drift: { anchor: { height: number; rate: string } } }).drift;
      expect(drift.anchor.height).toBe(blocks);
      expect(Math.abs(ms(drift.anchor.rate) - 6_500)).toBeLessThan(100);
      const exact = (timeMs(blocks) - timeMs(h.from.height)) / (blocks - h.from.height);
      expect(ms(h.meanBlockTime.window)).toBeCloseTo(exact, -1);
      expect(Math.abs(ms(h.meanBlockTime.lastHour) - 6_500)).toBeLessThan(30);
      expect(Math.abs(Date.parse(h.from.time) - (timeMs(blocks) - 36 * 3_600_000))).toBeLessThanOrEqual(15 * 60_000);
      const summary = JSON.parse(r.stdout.join("\n")) as { requests: number; samples: number };
      expect(summary.samples).toBe(h.samples);
      expect(node.requests.length).toBe(summary.requests);
      // Every REST query was pinned to the imported height by the cosmos height header.
    } finally {
      await node.close();
    }
  }, 60_000);

  it("imports 7 days of history of a 6 s chain in at most 2,000 requests (counted by the node)", async () => {
    const blocks = 7 * 14_400 + 5_000;
    const node = await startFixtureNode({ blocks, timeMs: (h) => GENESIS_MS + h * 6_000 + ((h * 31) % 1_000) });
    try {
      const r = await importFrom(node.url, ["history", "7d"]);
      expect(r.code, r.err.join("\n")).toBe(IMPORT_EXIT.ok);
      expect(node.requests.length).toBeLessThanOrEqual(2_000);
      const h = r.profile!.history!;
      expect(Date.parse(h.to.time) - Date.parse(h.from.time)).toBeGreaterThanOrEqual(7 * 86_400_000 - 15 * 60_000);
      expect(Math.abs(ms(h.meanBlockTime.window) - 6_000)).toBeLessThan(5);
      // About a page per 10 minutes of chain time plus the last hour.
      expect(node.requests.filter((u) => u.startsWith("/blockchain")).length).toBeGreaterThan(7 * 144);
    } finally {
      await node.close();
    }
  }, 120_000);

  it("falls back to consensus addresses when staking is not served", async () => {
    const node = await startFixtureNode({ blocks: 2_000, timeMs: (h) => GENESIS_MS + h * 6_000, fault: "no-staking" });
    try {
      const r = await importFrom(node.url, ["history", "1h"]);
      expect(r.code, r.err.join("\n")).toBe(IMPORT_EXIT.ok);
      expect(r.profile!.chain.validators!.map((v) => v.name)).toEqual(fixtureValidators(4).map((v) => v.address));
    } finally {
      await node.close();
    }
  }, 30_000);
});

describe("chainsim import: bad input is one line naming the endpoint, a documented exit code, no file", () => {
  const cases: [Fault | "unreachable" | "too-many-validators" | "wrong-namespace" | "request-cap", number, RegExp][] = [
    [
      "unreachable",
      IMPORT_EXIT.unreachable,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/status: unreachable: .*ECONNREFUSED.*after 3 attempts$/,
    ],
    [
      "request-cap",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/.*: the import's cap of 10 requests is reached$/,
    ],
    [
      "hang",
      IMPORT_EXIT.unreachable,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/status: unreachable: no answer within 200 ms, after 3 attempts$/,
    ],
    [
      "not-a-node",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/status: HTTP 200 with a body that is not JSON \(text\/html, "<html><body>It works!<\/body><\/html>"\): not a CometBFT RPC endpoint$/,
    ],
    ["truncated-json", IMPORT_EXIT.badAnswer, /^Error: http:\/\/127\.0\.0\.1:\d+\/status: malformed JSON \(/],
    [
      "cut-connection",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/status: the answer was cut short: .*after 3 attempts$/,
    ],
    [
      "malformed-field",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/cosmos\/gov\/v1\/params\/tallying: voting_period: expected a string, got 1209600$/,
    ],
    [
      "validators-loop",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/validators\?height=\d+&page=2&per_page=100: validator [0-9A-F]{40} again: the pages repeat \(page 2\)$/,
    ],
    [
      "staking-loop",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/cosmos\/staking\/v1beta1\/validators: next_key "MQ==" again: the pages repeat$/,
    ],
    [
      "chain-id-changes",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/blockchain\?minHeight=\d+&maxHeight=\d+: a header of chain other-chain, not cosmoshub-fixture-4: the chain id changed$/,
    ],
    [
      "height-backwards",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/status: latest height went backwards: 3000 then 2990$/,
    ],
    [
      "header-height-backwards",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/cosmos\/staking\/v1beta1\/validators\?.*: x-cosmos-block-height 2995 is below the import's height 3000$/,
    ],
    [
      "too-many-validators",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/validators\?height=3000&page=1&per_page=100: 150 validators, more than --max-validators 100$/,
    ],
    [
      "wrong-namespace",
      IMPORT_EXIT.badAnswer,
      /^Error: http:\/\/127\.0\.0\.1:\d+\/chain\/gov\/v1\/params\/voting: HTTP 404 \("404 page not found\\n"\): not a chain node's REST endpoint in the chain namespace \(is --namespace right\?\)$/,
    ],
  ];
  it.each(cases)(
    "%s → exit %i",
    async (name, code, line) => {
      const fault: Fault =
        name === "unreachable" || name === "too-many-validators" || name === "wrong-namespace" || name === "request-cap"
          ? "none"
          : name;
      const node = await startFixtureNode({
        blocks: 3_000,
        timeMs: (h) => GENESIS_MS + h * 6_000,
        fault,
        validators: name === "validators-loop" || name === "staking-loop" || name === "too-many-validators" ? 150 : 4,
      });
      const url = node.url;
      if (name === "unreachable") await node.close();
      try {
        const extra = ["history", "2h"];
        if (name === "too-many-validators") extra.push("maxValidators", "100");
        if (name === "hang") extra.push("timeout", "200ms");
        if (name === "request-cap") extra.push("maxRequests", "10");
        if (name === "wrong-namespace") extra.push("namespace", "chain");
        const out = join(dir, `${name}.yaml`);
        const r = await importFrom(url, extra, out);
        expect(r.err).toHaveLength(1);
        expect(r.err[0]).toMatch(line);
        expect(r.code).toBe(code);
        expect(r.stdout).toEqual([]);
        expect(existsSync(out)).toBe(false);
        expect(readdirSync(dir).filter((f) => f.includes(name))).toEqual([]);
      } finally {
        if (name !== "unreachable") await node.close();
      }
    },
    30_000,
  );

  it("an --out that cannot be replaced is exit 2, and no temporary file is left", async () => {
    const node = await startFixtureNode({ blocks: 1_000, timeMs: (h) => GENESIS_MS + h * 6_000 });
    try {
      const r = await importFrom(node.url, ["history", "1h"], dir);
      expect(r.code).toBe(IMPORT_EXIT.usage);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/^Error: --out: .*: EISDIR: illegal operation on a directory, rename/);
      expect(readdirSync(join(dir, "..")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    } finally {
      await node.close();
    }
  });

  it("rejects bad flags with exit 2 before any request", async () => {
    const io = { out: (_: string) => {}, err: (s: string) => errs.push(s) };
    const errs: string[] = [];
    const base = { rest: "http://127.0.0.1:1", rpc: "http://127.0.0.1:1", out: join(dir, "x.yaml") };
    expect(await runImport({ ...base, namespace: "osmosis" }, io)).toBe(IMPORT_EXIT.usage);
    expect(await runImport({ ...base, history: "3 days" }, io)).toBe(IMPORT_EXIT.usage);
    expect(await runImport({ ...base, rest: "ftp://x" }, io)).toBe(IMPORT_EXIT.usage);
    expect(await runImport({ ...base, out: "/no/such/dir/p.yaml" }, io)).toBe(IMPORT_EXIT.usage);
    expect(await runImport({ ...base, maxValidators: "0" }, io)).toBe(IMPORT_EXIT.usage);
    expect(errs).toEqual([
      'Error: --namespace: expected chain or cosmos, got "osmosis"',
      'Error: --history: expected e.g. 7d or 36h, got "3 days"',
      'Error: --rest: expected an http:// or https:// URL, got "ftp://x"',
      'Error: --out: "/no/such/dir/p.yaml": the directory "/no/such/dir" does not exist',
      'Error: --max-validators: expected an integer from 1 to 100000, got "0"',
    ]);
  });
});
