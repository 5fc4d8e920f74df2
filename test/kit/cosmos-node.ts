import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small fixture node for `chainsim import`'s tests: one loopback HTTP server answering CometBFT v0.38's RPC (URI
 * form: `status`, `validators`, `blockchain`) and a Cosmos SDK v0.50 REST gateway under the `cosmos` namespace, in the
 * reference's exact shapes (CometBFT rpc/openapi/openapi.yaml, the SDK's swagger): integers as strings, upper-case
 * hex hashes, RFC 3339 times with nanoseconds, `null` for an absent message, gogoproto durations (`172800s`).
 *
 * The chain: `blocks` blocks, block h at `timeMs(h)`; `validators` bonded validators (monikers served by staking,
 * power descending); gov v0.47+ params; a pending plan; a passed upgrade applied at 50; two pending proposals.
 * `fault` plants one bad answer for the import's error cases. Every request is logged (`requests`).
 */
export type Fault =
  | "none"
  | "not-a-node"
  | "truncated-json"
  | "cut-connection"
  | "malformed-field"
  | "validators-loop"
  | "staking-loop"
  | "chain-id-changes"
  | "height-backwards"
  | "header-height-backwards"
  | "no-staking"
  | "hang";

export interface FixtureOptions {
  readonly blocks: number;
  /** Time of block h in ms (h ≥ 1). */
  readonly timeMs: (h: number) => number;
  readonly validators?: number;
  readonly fault?: Fault;
}

export const FIXTURE_CHAIN_ID = "cosmoshub-fixture-4";
export const FIXTURE_PLAN = {
  name: "v19",
  height: "23000000",
  info: '{"binaries":{"linux/amd64":"https://example.com/gaiad?checksum=sha256:00"}}',
};

const hex = (s: string): string => createHash("sha256").update(s).digest("hex").toUpperCase();
const b64 = (s: string): string => createHash("sha256").update(s).digest("base64");

/** RFC 3339 with nanoseconds, as CometBFT writes a header time (trailing zeros trimmed). */
export function nanoTime(ms: number, h: number): string {
  const iso = new Date(ms).toISOString(); // 2026-01-09T08:00:00.123Z
  const nanos = `${iso.slice(20, 23)}${String((h * 7_919) % 1_000_000).padStart(6, "0")}`.replace(/0+$/, "");
  return `${iso.slice(0, 19)}${nanos === "" ? "" : `.${nanos}`}Z`;
}

export interface FixtureValidator {
  readonly moniker: string;
  readonly address: string;
  readonly pubkey: string;
  readonly power: number;
}

/** Validator i (0-based): monikers with spaces, an emoji and a duplicate, as real sets have. */
export function fixtureValidators(n: number): FixtureValidator[] {
  return Array.from({ length: n }, (_, i) => ({
    moniker: i === 0 ? "Coinbase Cloud 🚀" : i === 1 ? "coinbase cloud" : i === 2 ? "" : `validator #${i}`,
    address: hex(`val${i}`).slice(0, 40),
    pubkey: b64(`val${i}`),
    power: 1_000_000 - i * 1_000,
  }));
}

export const FIXTURE_GOV = {
  min_deposit: [{ denom: "uatom", amount: "250000000" }],
  max_deposit_period: "1209600s",
  voting_period: "1209600s",
  quorum: "0.400000000000000000",
  threshold: "0.500000000000000000",
  veto_threshold: "0.334000000000000000",
  min_initial_deposit_ratio: "0.250000000000000000",
  proposal_cancel_ratio: "0.500000000000000000",
  proposal_cancel_dest: "",
  expedited_voting_period: "604800s",
  expedited_threshold: "0.667000000000000000",
  expedited_min_deposit: [{ denom: "uatom", amount: "500000000" }],
  burn_vote_quorum: false,
  burn_proposal_deposit_prevote: false,
  burn_vote_veto: true,
  min_deposit_ratio: "0.010000000000000000",
};

const upgradeMsg = (name: string, height: string) => ({
  "@type": "/cosmos.upgrade.v1beta1.MsgSoftwareUpgrade",
  authority: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn",
  plan: { name, time: "0001-01-01T00:00:00Z", height, info: "", upgraded_client_state: null },
});

const proposal = (id: number, status: string, messages: unknown[], voting: boolean) => ({
  id: String(id),
  messages,
  status,
  final_tally_result: { yes_count: "0", abstain_count: "0", no_count: "0", no_with_veto_count: "0" },
  submit_time: "2026-01-08T08:00:00.123456789Z",
  deposit_end_time: "2026-01-22T08:00:00.123456789Z",
  total_deposit: [{ denom: "uatom", amount: "250000000" }],
  voting_start_time: voting ? "2026-01-08T09:00:00Z" : null,
  voting_end_time: voting ? "2026-01-22T09:00:00Z" : null,
  metadata: "ipfs://CID",
  title: `proposal ${id}`,
  summary: "",
  proposer: "cosmos1esweepj7swqv94txm3eyce3kjpg6e74rammzdz",
  expedited: false,
  failed_reason: "",
});

export const FIXTURE_PROPOSALS = {
  PROPOSAL_STATUS_VOTING_PERIOD: [
    proposal(
      7,
      "PROPOSAL_STATUS_VOTING_PERIOD",
      [
        upgradeMsg("v20", "24000000"),
        {
          "@type": "/cosmos.upgrade.v1beta1.MsgCancelUpgrade",
          authority: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn",
        },
      ],
      true,
    ),
  ],
  PROPOSAL_STATUS_DEPOSIT_PERIOD: [
    proposal(
      8,
      "PROPOSAL_STATUS_DEPOSIT_PERIOD",
      [
        { "@type": "/cosmos.bank.v1beta1.MsgSend", from_address: "a", to_address: "b", amount: [] },
        {
          "@type": "/cosmos.gov.v1.MsgExecLegacyContent",
          content: {
            "@type": "/cosmos.upgrade.v1beta1.SoftwareUpgradeProposal",
            title: "legacy",
            description: "",
            plan: {
              name: "v17",
              time: "0001-01-01T00:00:00Z",
              height: "30000000",
              info: "",
              upgraded_client_state: null,
            },
          },
          authority: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn",
        },
      ],
      false,
    ),
  ],
  PROPOSAL_STATUS_PASSED: [proposal(3, "PROPOSAL_STATUS_PASSED", [upgradeMsg("v18", "50")], true)],
} as const;

export interface FixtureNode {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(text);
};
const rpc = (res: ServerResponse, result: unknown) => json(res, 200, { jsonrpc: "2.0", id: -1, result });
const rpcError = (res: ServerResponse, data: string) =>
  json(res, 500, { jsonrpc: "2.0", id: -1, error: { code: -32603, message: "Internal error", data } });

class Fixture {
  readonly requests: string[] = [];
  readonly vals: FixtureValidator[];
  readonly fault: Fault;
  statusCalls = 0;

  constructor(readonly o: FixtureOptions) {
    this.vals = fixtureValidators(o.validators ?? 4);
    this.fault = o.fault ?? "none";
  }

  header(h: number) {
    return {
      version: { block: "11", app: "0" },
      chain_id: this.fault === "chain-id-changes" && h === this.o.blocks - 700 ? "other-chain" : FIXTURE_CHAIN_ID,
      height: String(h),
      time: nanoTime(this.o.timeMs(h), h),
      last_block_id: { hash: hex(`block${h - 1}`), parts: { total: 1, hash: hex(`parts${h - 1}`) } },
      last_commit_hash: hex(`commit${h}`),
      data_hash: hex(`data${h}`),
      validators_hash: hex("vals"),
      next_validators_hash: hex("vals"),
      consensus_hash: hex("consensus"),
      app_hash: hex(`app${h}`),
      last_results_hash: hex(`results${h}`),
      evidence_hash: hex(""),
      proposer_address: this.vals[h % this.vals.length]!.address,
    };
  }

  answerRpc(path: string, q: URLSearchParams, res: ServerResponse) {
    const latest = this.o.blocks;
    if (path === "/status") {
      this.statusCalls++;
      const moved = this.statusCalls > 1 && this.fault === "height-backwards";
      const h = moved ? latest - 10 : latest;
      const body = {
        node_info: {
          protocol_version: { p2p: "8", block: "11", app: "0" },
          id: "b77488f9fa23715979fe03cfc19fd4f3b3750347",
          listen_addr: "tcp://0.0.0.0:26656",
          network: FIXTURE_CHAIN_ID,
          version: "0.38.17",
          channels: "40202122233038606100",
          moniker: "fixture",
          other: { tx_index: "on", rpc_address: "tcp://0.0.0.0:26657" },
        },
        sync_info: {
          latest_block_hash: hex(`block${h}`),
          latest_app_hash: hex(`app${h}`),
          latest_block_height: String(h),
          latest_block_time: nanoTime(this.o.timeMs(h), h),
          earliest_block_hash: hex("block1"),
          earliest_app_hash: hex("app1"),
          earliest_block_height: "1",
          earliest_block_time: nanoTime(this.o.timeMs(1), 1),
          catching_up: false,
        },
        validator_info: {
          address: this.vals[0]!.address,
          pub_key: { type: "tendermint/PubKeyEd25519", value: this.vals[0]!.pubkey },
          voting_power: String(this.vals[0]!.power),
        },
      };
      if (this.fault === "truncated-json") {
        const text = JSON.stringify({ jsonrpc: "2.0", id: -1, result: body }, null, 2);
        res.writeHead(200, { "content-type": "application/json" }).end(text.slice(0, text.length / 2));
        return;
      }
      if (this.fault === "cut-connection") {
        res.writeHead(200, { "content-type": "application/json", "content-length": "5000" });
        res.write('{"jsonrpc":"2.0",');
        setTimeout(() => res.socket?.destroy(), 10);
        return;
      }
      rpc(res, body);
      return;
    }
    if (path === "/validators") {
      const page = Number(q.get("page") ?? "1");
      const per = Math.min(100, Number(q.get("per_page") ?? "30"));
      const pages = Math.max(1, Math.ceil(this.vals.length / per));
      if (page < 1 || page > pages) return rpcError(res, `page should be within [1, ${pages}] range, given ${page}`);
      const from = this.fault === "validators-loop" ? 0 : (page - 1) * per;
      const list = this.vals.slice(from, from + per).map((v) => ({
        address: v.address,
        pub_key: { type: "tendermint/PubKeyEd25519", value: v.pubkey },
        voting_power: String(v.power),
        proposer_priority: "-1250",
      }));
      return rpc(res, {
        block_height: q.get("height") ?? String(latest),
        validators: list,
        count: String(list.length),
        total: String(this.vals.length),
      });
    }
    if (path === "/blockchain") {
      let max = Math.min(Number(q.get("maxHeight") ?? latest) || latest, latest);
      const min = Math.max(Number(q.get("minHeight") ?? 1) || 1, 1, max - 19);
      if (min > max) return rpcError(res, `min height ${min} can't be greater than max height ${max}`);
      const metas = [];
      for (; max >= min; max--)
        metas.push({
          block_id: { hash: hex(`block${max}`), parts: { total: 1, hash: hex(`parts${max}`) } },
          block_size: "2313",
          header: this.header(max),
          num_txs: "0",
        });
      return rpc(res, { last_height: String(latest), block_metas: metas });
    }
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("404 page not found\n");
  }

  answerRest(path: string, q: URLSearchParams, res: ServerResponse) {
    const pinned = this.fault === "header-height-backwards" ? this.o.blocks - 5 : this.o.blocks;
    const ok = (body: unknown) => json(res, 200, body, { "x-cosmos-block-height": String(pinned) });
    const notImplemented = () => json(res, 501, { code: 12, message: "Not Implemented", details: [] });
    const m = /^\/cosmos\/gov\/v1\/params\/(voting|deposit|tallying)$/.exec(path);
    if (m !== null) {
      const params = this.fault === "malformed-field" ? { ...FIXTURE_GOV, voting_period: 1209600 } : FIXTURE_GOV;
      return ok({ voting_params: null, deposit_params: null, tally_params: null, params });
    }
    if (path === "/cosmos/gov/v1/proposals") {
      const status = q.get("proposal_status") as keyof typeof FIXTURE_PROPOSALS;
      const list = FIXTURE_PROPOSALS[status] ?? [];
      return ok({ proposals: list, pagination: { next_key: null, total: String(list.length) } });
    }
    const tally = /^\/cosmos\/gov\/v1\/proposals\/([0-9]+)\/tally$/.exec(path);
    if (tally !== null)
      return ok({ tally: { yes_count: "600000000", abstain_count: "1000", no_count: "25", no_with_veto_count: "0" } });
    if (path === "/cosmos/upgrade/v1beta1/current_plan") return ok({ plan: FIXTURE_PLAN });
    if (path === "/cosmos/upgrade/v1beta1/module_versions")
      return ok({
        module_versions: [
          { name: "auth", version: "5" },
          { name: "gov", version: "5" },
          { name: "upgrade", version: "2" },
          { name: "consensus", version: "1" },
        ],
      });
    const applied = /^\/cosmos\/upgrade\/v1beta1\/applied_plan\/(.+)$/.exec(path);
    if (applied !== null) return ok({ height: applied[1] === "v18" ? "50" : applied[1] === "v17" ? "40" : "0" });
    if (path === "/cosmos/staking/v1beta1/validators" && this.fault !== "no-staking") {
      const key = q.get("pagination.key") ?? "";
      const start = key === "" ? 0 : Number(Buffer.from(key, "base64").toString());
      const limit = Number(q.get("pagination.limit") ?? "100");
      const page = this.vals.slice(start, start + limit);
      const next =
        start + limit < this.vals.length
          ? Buffer.from(String(this.fault === "staking-loop" ? 1 : start + limit)).toString("base64")
          : null;
      return ok({
        validators: page.map((v, i) => ({
          operator_address: `cosmosvaloper1${String(start + i).padStart(38, "q")}`,
          consensus_pubkey: { "@type": "/cosmos.crypto.ed25519.PubKey", key: v.pubkey },
          jailed: false,
          status: "BOND_STATUS_BONDED",
          tokens: String(v.power * 1_000_000),
          delegator_shares: `${v.power * 1_000_000}.000000000000000000`,
          description: { moniker: v.moniker, identity: "", website: "", security_contact: "", details: "" },
          unbonding_height: "0",
          unbonding_time: "1970-01-01T00:00:00Z",
          commission: {
            commission_rates: {
              rate: "0.050000000000000000",
              max_rate: "0.200000000000000000",
              max_change_rate: "0.010000000000000000",
            },
            update_time: "2026-01-01T00:00:00Z",
          },
          min_self_delegation: "1",
          unbonding_on_hold_ref_count: "0",
          unbonding_ids: [],
        })),
        pagination: { next_key: next, total: String(this.vals.length) },
      });
    }
    return notImplemented();
  }

  answer(req: IncomingMessage, res: ServerResponse): void {
    const u = new URL(req.url ?? "/", "http://fixture");
    if (this.fault === "hang") return;
    if (this.fault === "not-a-node") {
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>It works!</body></html>");
      return;
    }
    if (u.pathname.startsWith("/cosmos/")) this.answerRest(u.pathname, u.searchParams, res);
    else this.answerRpc(u.pathname, u.searchParams, res);
  }
}

export async function startFixtureNode(o: FixtureOptions): Promise<FixtureNode> {
  const f = new Fixture(o);
  const server = createServer((req, res) => {
    f.requests.push(req.url ?? "");
    try {
      f.answer(req, res);
    } catch (e) {
      res.writeHead(500).end(String(e));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: f.requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
