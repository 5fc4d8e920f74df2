import { sha256 } from "@noble/hashes/sha2.js";
import { base64, hex } from "@scure/base";
import type { BlockMeta } from "../../chain/block-store.js";
import { abciQuery, abciQueryJson } from "./abci-query.js";
import { exceedsJsonDepth } from "./json-depth.js";
import {
  blockMetaJson,
  commitJson,
  EMPTY_BLOCK_ID,
  EMPTY_COMMIT,
  headerJson,
  pubkeyJson,
  txResultJson,
  upperHex,
} from "./shapes.js";
import type { RpcSource, RpcTxResult } from "./source.js";
import { heightRange, matches, parseQuery } from "./tx-query.js";

/**
 * CometBFT v0.38's RPC (rpc/core routes and rpc/jsonrpc/server) over an RpcSource, without a socket: JSON-RPC 2.0
 * over POST and the URI form over GET, answered as CometBFT answers them.
 *
 * - JSON-RPC: a single request or a batch; a request without `id` is a notification (no reply). Params by name
 *   (object) or by position (array). A body that is not JSON, or not request objects, is -32700 `Parse error`
 *   (HTTP 500); a POST to a path other than `/` is -32600; an unknown method -32601; params that do not convert
 *   -32602 `Invalid params` (`error converting json params to arguments: ...`); a method's failure -32603
 *   `Internal error` with CometBFT's text in `data` (HTTP 200 for all of these inside a parsed request).
 * - URI: `GET /<method>?<arg>=<value>`: strings quoted (`path="/chain..."`), integers bare, bytes as `0x<hex>` or a
 *   quoted string; answers carry id -1; errors are HTTP 500.
 * - Heights: `height must be greater than 0, but got H`, `height H must be less than or equal to the current
 *   blockchain height L`, `height H is not available, lowest height is B` (pruned).
 * - Methods: health, status, net_info, blockchain, genesis, block, block_by_hash, block_results, commit, header,
 *   header_by_hash, validators, abci_info, abci_query, tx, tx_search, num_unconfirmed_txs, and, when the source has a
 *   broadcast side, broadcast_tx_sync, broadcast_tx_async, broadcast_tx_commit.
 */
export interface RpcHttpRequest {
  readonly method: string;
  /** Path and query string. */
  readonly target: string;
  readonly body: string;
}

export interface RpcHttpResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

type Json = unknown;
type Id = string | number | null;

interface RpcErrorObj {
  readonly code: number;
  readonly message: string;
  readonly data?: string;
}

class MethodError extends Error {}
class ParamError extends Error {}

/** One argument as received: a JSON value (JSON-RPC) or the raw text of a URI query parameter. */
type Arg = { readonly kind: "json"; readonly value: Json } | { readonly kind: "uri"; readonly text: string };

interface Method {
  readonly args: readonly string[];
  readonly write?: boolean;
  run(a: Args): Json | Promise<Json>;
}

const MAX_BATCH = 100;
const PER_PAGE_DEFAULT = 30;
const PER_PAGE_MAX = 100;
const BLOCKCHAIN_LIMIT = 20;
/** Longest scan of the block store one tx_search or block_by_hash may make. */
const SCAN_MAX_BLOCKS = 1_000_000;

class Args {
  constructor(
    private readonly m: ReadonlyMap<string, Arg>,
    private readonly source: "json" | "http",
  ) {}

  #fail(name: string, detail: string): never {
    throw new ParamError(`error converting ${this.source} params to arguments: ${name}: ${detail}`);
  }

  int(name: string): bigint | undefined {
    const a = this.m.get(name);
    if (a === undefined) return undefined;
    let text: string;
    if (a.kind === "json") {
      if (a.value === null) return undefined;
      if (typeof a.value === "number" && Number.isSafeInteger(a.value)) return BigInt(a.value);
      if (typeof a.value !== "string") this.#fail(name, `expected an integer, got ${JSON.stringify(a.value)}`);
      text = a.value;
    } else text = a.text.replace(/^"(.*)"$/, "$1");
    if (!/^-?[0-9]{1,19}$/.test(text)) this.#fail(name, `invalid integer ${JSON.stringify(text)}`);
    const v = BigInt(text);
    if (v > 0x7fffffffffffffffn || v < -0x8000000000000000n) this.#fail(name, `value out of range ${text}`);
    return v;
  }

  bool(name: string): boolean {
    const a = this.m.get(name);
    if (a === undefined) return false;
    const v = a.kind === "json" ? a.value : a.text;
    if (v === true || v === "true") return true;
    if (v === false || v === "false" || v === null) return false;
    return this.#fail(name, `expected a bool, got ${JSON.stringify(v)}`);
  }

  string(name: string): string {
    const a = this.m.get(name);
    if (a === undefined) return "";
    if (a.kind === "json") {
      if (a.value === null) return "";
      if (typeof a.value !== "string") this.#fail(name, `expected a string, got ${JSON.stringify(a.value)}`);
      return a.value;
    }
    const m = /^"(.*)"$/s.exec(a.text);
    if (m === null) this.#fail(name, `invalid string arg ${JSON.stringify(a.text)}: must be quoted`);
    return m[1]!;
  }

  /** []byte: base64 in JSON-RPC; `0x<hex>` or a quoted string in a URI. */
  bytes(name: string, jsonEncoding: "base64" | "hex"): Uint8Array {
    const a = this.m.get(name);
    if (a === undefined) return new Uint8Array();
    const decode = (text: string, enc: "base64" | "hex"): Uint8Array => {
      try {
        return enc === "hex" ? hex.decode(text.toLowerCase()) : base64.decode(text);
      } catch {
        return this.#fail(name, `invalid ${enc} ${JSON.stringify(text.slice(0, 80))}`);
      }
    };
    if (a.kind === "json") {
      if (a.value === null) return new Uint8Array();
      if (typeof a.value !== "string") this.#fail(name, `expected a string, got ${JSON.stringify(a.value)}`);
      return decode(a.value, jsonEncoding);
    }
    if (/^0x/i.test(a.text)) return decode(a.text.slice(2), "hex");
    const q = /^"(.*)"$/s.exec(a.text);
    if (q === null) this.#fail(name, `invalid bytes arg ${JSON.stringify(a.text)}: use 0x<hex> or a quoted string`);
    return new TextEncoder().encode(q[1]!);
  }
}

const internal = (message: string): never => {
  throw new MethodError(message);
};

export class RpcHandler {
  readonly #s: RpcSource;
  readonly #methods: ReadonlyMap<string, Method>;

  constructor(source: RpcSource) {
    this.#s = source;
    this.#methods = this.#build();
  }

  /** The served method names (the read-only ones when the source cannot broadcast). */
  get methods(): readonly string[] {
    return [...this.#methods.keys()];
  }

  // ---- heights ----------------------------------------------------------------------------------------------------

  /** CometBFT `getHeight`: an explicit height must be stored; none means the latest. */
  #height(h: bigint | undefined): number {
    const latest = this.#s.blocks.latestHeight();
    if (h === undefined) return latest;
    if (h <= 0n) internal(`height must be greater than 0, but got ${h}`);
    if (h > BigInt(latest))
      internal(`height ${h} must be less than or equal to the current blockchain height ${latest}`);
    const base = this.#s.blocks.baseHeight();
    if (h < BigInt(base)) internal(`height ${h} is not available, lowest height is ${base}`);
    return Number(h);
  }

  #meta(h: number): BlockMeta {
    const m = this.#s.blocks.blockMeta(h);
    return m ?? internal(`height ${h} is not available, lowest height is ${this.#s.blocks.baseHeight()}`);
  }

  #block(meta: BlockMeta) {
    const h = Number(meta.header.height);
    const txs = this.#s.blocks.blockTxs(h);
    const prev = h > 1 ? this.#s.blocks.blockMeta(h - 1) : undefined;
    return {
      block_id: meta.block_id,
      block: {
        header: headerJson(meta),
        data: { txs: txs.length === 0 ? null : txs.map((t) => base64.encode(t)) },
        evidence: { evidence: [] },
        last_commit: prev === undefined ? EMPTY_COMMIT : commitJson(prev, this.#s.validators()),
      },
    };
  }

  /** Scans stored blocks from the latest down for a block hash (upper-case hex). */
  #findBlock(hashHex: string): BlockMeta | undefined {
    const latest = this.#s.blocks.latestHeight();
    const base = Math.max(this.#s.blocks.baseHeight(), latest - SCAN_MAX_BLOCKS + 1, 1);
    for (let h = latest; h >= base; h--) {
      const m = this.#s.blocks.blockMeta(h);
      if (m?.block_id.hash === hashHex) return m;
    }
    return undefined;
  }

  #page(page: bigint | undefined, perPage: bigint | undefined, total: number): { start: number; size: number } {
    const size = perPage === undefined || perPage <= 0n ? PER_PAGE_DEFAULT : Math.min(Number(perPage), PER_PAGE_MAX);
    const pages = Math.max(1, Math.ceil(total / size));
    const p = page === undefined ? 1n : page;
    if (p <= 0n || p > BigInt(pages)) internal(`page should be within [1, ${pages}] range, given ${p}`);
    return { start: (Number(p) - 1) * size, size };
  }

  #txJson(height: number, index: number, tx: Uint8Array, r: RpcTxResult | undefined) {
    return {
      hash: upperHex(sha256(tx)),
      height: String(height),
      index,
      tx_result: txResultJson(r ?? { code: 0, codespace: "", log: "", gasWanted: 0n, gasUsed: 0n, events: [] }),
      tx: base64.encode(tx),
    };
  }

  /** Every stored tx matching `test`, in (height, index) order, within [lo, hi]. */
  #scanTxs(lo: number, hi: number, test: (height: number, hash: string, r: RpcTxResult | undefined) => boolean) {
    const out: { height: number; index: number; tx: Uint8Array; result: RpcTxResult | undefined }[] = [];
    const from = Math.max(lo, hi - SCAN_MAX_BLOCKS + 1);
    for (let h = from; h <= hi; h++) {
      const txs = this.#s.blocks.blockTxs(h);
      if (txs.length === 0) continue;
      const results = this.#s.blockResults(h);
      txs.forEach((tx, i) => {
        const hash = upperHex(sha256(tx));
        if (test(h, hash, results[i])) out.push({ height: h, index: i, tx, result: results[i] });
      });
    }
    return out;
  }

  // ---- methods ----------------------------------------------------------------------------------------------------

  #build(): Map<string, Method> {
    const s = this.#s;
    const m = new Map<string, Method>();
    const validators = () =>
      s.validators().map((v) => ({
        address: upperHex(v.address),
        pub_key: pubkeyJson(v.pubkey),
        voting_power: v.power.toString(),
        proposer_priority: "0",
      }));
    m.set("health", { args: [], run: () => ({}) });
    m.set("status", {
      args: [],
      run: () => {
        const n = s.blocks.nodeInfo();
        const latest = s.blocks.latestHeight();
        const base = s.blocks.baseHeight();
        const lm = latest > 0 ? s.blocks.blockMeta(latest) : undefined;
        const em = latest > 0 ? s.blocks.blockMeta(base) : undefined;
        const v = s.validators()[0];
        return {
          node_info: {
            protocol_version: { p2p: "8", block: "11", app: n.protocolApp.toString() },
            id: n.nodeId,
            listen_addr: n.listenAddr,
            network: n.network,
            version: n.version,
            channels: "40202122233038606100",
            moniker: n.moniker,
            other: { tx_index: "on", rpc_address: n.rpcAddress },
          },
          sync_info: {
            latest_block_hash: lm?.block_id.hash ?? "",
            latest_app_hash: lm?.header.app_hash ?? "",
            latest_block_height: String(latest),
            latest_block_time: lm?.header.time ?? "1970-01-01T00:00:00Z",
            earliest_block_hash: em?.block_id.hash ?? "",
            earliest_app_hash: em?.header.app_hash ?? "",
            earliest_block_height: String(em === undefined ? 0 : base),
            earliest_block_time: em?.header.time ?? "1970-01-01T00:00:00Z",
            catching_up: s.blocks.syncing(),
          },
          validator_info:
            v === undefined
              ? { address: "", pub_key: null, voting_power: "0" }
              : { address: upperHex(v.address), pub_key: pubkeyJson(v.pubkey), voting_power: v.power.toString() },
        };
      },
    });
    m.set("net_info", {
      args: [],
      run: () => ({
        listening: true,
        listeners: [`Listener(@${s.blocks.nodeInfo().listenAddr})`],
        n_peers: "0",
        peers: [],
      }),
    });
    m.set("blockchain", {
      args: ["minHeight", "maxHeight"],
      run: (a) => {
        let min = a.int("minHeight") ?? 0n;
        let max = a.int("maxHeight") ?? 0n;
        const latest = BigInt(s.blocks.latestHeight());
        const base = BigInt(s.blocks.baseHeight());
        if (min < 0n || max < 0n) internal("heights must be non-negative");
        if (min === 0n) min = 1n;
        if (max === 0n) max = latest;
        max = max < latest ? max : latest;
        min = min > base ? min : base;
        const floor = max - BigInt(BLOCKCHAIN_LIMIT) + 1n;
        min = min > floor ? min : floor;
        if (min > max) internal(`min height ${min} can't be greater than max height ${max}`);
        const metas = [];
        for (let h = Number(max); h >= Number(min); h--) {
          const meta = s.blocks.blockMeta(h);
          if (meta !== undefined) metas.push(blockMetaJson(meta));
        }
        return { last_height: latest.toString(), block_metas: metas };
      },
    });
    m.set("genesis", {
      args: [],
      run: () => {
        const g = s.genesis();
        const n = s.blocks.nodeInfo();
        return {
          genesis: {
            genesis_time: new Date(g.timeMs).toISOString().replace(".000Z", "Z"),
            chain_id: n.network,
            initial_height: String(g.initialHeight),
            consensus_params: {
              block: { max_bytes: "22020096", max_gas: "-1" },
              evidence: { max_age_num_blocks: "100000", max_age_duration: "172800000000000", max_bytes: "1048576" },
              validator: { pub_key_types: ["ed25519"] },
              version: { app: "0" },
              abci: { vote_extensions_enable_height: "0" },
            },
            validators: s.validators().map((v) => ({
              address: upperHex(v.address),
              pub_key: pubkeyJson(v.pubkey),
              power: v.power.toString(),
              name: v.name,
            })),
            app_hash: "",
            app_state: g.appState,
          },
        };
      },
    });
    m.set("block", { args: ["height"], run: (a) => this.#block(this.#meta(this.#height(a.int("height")))) });
    m.set("block_by_hash", {
      args: ["hash"],
      run: (a) => {
        const meta = this.#findBlock(upperHex(a.bytes("hash", "base64")));
        return meta === undefined ? { block_id: EMPTY_BLOCK_ID, block: null } : this.#block(meta);
      },
    });
    m.set("header", {
      args: ["height"],
      run: (a) => ({ header: headerJson(this.#meta(this.#height(a.int("height")))) }),
    });
    m.set("header_by_hash", {
      args: ["hash"],
      run: (a) => {
        const meta = this.#findBlock(upperHex(a.bytes("hash", "base64")));
        return { header: meta === undefined ? null : headerJson(meta) };
      },
    });
    m.set("commit", {
      args: ["height"],
      run: (a) => {
        const h = this.#height(a.int("height"));
        const meta = this.#meta(h);
        return {
          signed_header: { header: headerJson(meta), commit: commitJson(meta, s.validators()) },
          canonical: h < s.blocks.latestHeight(),
        };
      },
    });
    m.set("block_results", {
      args: ["height"],
      run: (a) => {
        const h = this.#height(a.int("height"));
        const results = s.blockResults(h);
        const appHash = s.appHashAfter(h);
        return {
          height: String(h),
          txs_results: results.length === 0 ? null : results.map(txResultJson),
          finalize_block_events: [],
          validator_updates: null,
          consensus_param_updates: null,
          app_hash: appHash === undefined ? "" : base64.encode(hex.decode(appHash.toLowerCase())),
        };
      },
    });
    m.set("validators", {
      args: ["height", "page", "per_page"],
      run: (a) => {
        const h = this.#height(a.int("height"));
        const all = validators();
        const { start, size } = this.#page(a.int("page"), a.int("per_page"), all.length);
        const page = all.slice(start, start + size);
        return { block_height: String(h), validators: page, count: String(page.length), total: String(all.length) };
      },
    });
    m.set("abci_info", {
      args: [],
      run: () => {
        const n = s.blocks.nodeInfo();
        const latest = s.blocks.latestHeight();
        const appHash = latest > 0 ? s.appHashAfter(latest) : undefined;
        return {
          response: {
            data: n.appName,
            version: n.appVersion,
            app_version: n.protocolApp.toString(),
            last_block_height: String(latest),
            last_block_app_hash: appHash === undefined ? null : base64.encode(hex.decode(appHash.toLowerCase())),
          },
        };
      },
    });
    m.set("abci_query", {
      args: ["path", "data", "height", "prove"],
      run: (a) => {
        const path = a.string("path");
        const data = a.bytes("data", "hex");
        const height = a.int("height") ?? 0n;
        a.bool("prove");
        return { response: abciQueryJson(abciQuery(s.backend, path, data, height)) };
      },
    });
    m.set("tx", {
      args: ["hash", "prove"],
      run: (a) => {
        const hash = upperHex(a.bytes("hash", "base64"));
        a.bool("prove");
        const at = s.txHeight?.(hash);
        const [lo, hi] = at === undefined ? [s.blocks.baseHeight(), s.blocks.latestHeight()] : [at, at];
        const found = this.#scanTxs(lo, hi, (_h, x) => x === hash)[0];
        if (found === undefined) return internal(`tx (${hash}) not found`);
        return this.#txJson(found.height, found.index, found.tx, found.result);
      },
    });
    m.set("tx_search", {
      args: ["query", "prove", "page", "per_page", "order_by"],
      run: (a) => {
        const q = parseQuery(a.string("query"));
        a.bool("prove");
        const page = a.int("page");
        const perPage = a.int("per_page");
        const order = a.string("order_by");
        if (order !== "" && order !== "asc" && order !== "desc")
          internal("expected order_by to be either `asc` or `desc` or empty");
        if (!q.ok) return internal(q.error);
        const [lo, hi] = heightRange(q.value, s.blocks.baseHeight(), s.blocks.latestHeight());
        const found = this.#scanTxs(lo, hi, (height, hash, r) =>
          matches(q.value, { height, hash, events: r?.events ?? [] }),
        );
        if (order === "desc") found.reverse();
        const { start, size } = this.#page(page, perPage, found.length);
        return {
          txs: found.slice(start, start + size).map((t) => this.#txJson(t.height, t.index, t.tx, t.result)),
          total_count: String(found.length),
        };
      },
    });
    m.set("num_unconfirmed_txs", {
      args: [],
      run: () => {
        const p = s.mempool();
        return { n_txs: String(p.count), total: String(p.count), total_bytes: String(p.bytes), txs: null };
      },
    });
    const b = s.broadcast;
    if (b !== undefined) {
      const check = (a: Args) => {
        const tx = a.bytes("tx", "base64");
        const r = b.check(tx);
        if (r.kind === "mempool") return internal(r.message);
        return r;
      };
      const syncJson = (hash: string, r: RpcTxResult) => ({
        code: r.code,
        data: "",
        log: r.log,
        codespace: r.codespace,
        hash,
      });
      m.set("broadcast_tx_sync", {
        args: ["tx"],
        write: true,
        run: (a) => {
          const r = check(a);
          return syncJson(r.hash, r.result);
        },
      });
      m.set("broadcast_tx_async", {
        args: ["tx"],
        write: true,
        run: (a) => {
          const r = check(a);
          return { code: 0, data: "", log: "", codespace: "", hash: r.hash };
        },
      });
      m.set("broadcast_tx_commit", {
        args: ["tx"],
        write: true,
        run: async (a) => {
          const r = check(a);
          const { info: _info, ...checkTx } = txResultJson(r.result);
          if (r.result.code !== 0)
            return { check_tx: { ...checkTx, info: "" }, tx_result: {}, hash: r.hash, height: "0" };
          const height = await b.committed(r.hash, b.commitTimeoutMs);
          if (height === undefined) return internal("timed out waiting for tx to be included in a block");
          const found = this.#scanTxs(height, height, (_h, x) => x === r.hash)[0];
          return {
            check_tx: { ...checkTx, info: "" },
            tx_result: txResultJson(found?.result ?? r.result),
            hash: r.hash,
            height: String(height),
          };
        },
      });
    }
    return m;
  }

  // ---- transports -------------------------------------------------------------------------------------------------

  async #call(method: Method, args: Args): Promise<{ ok: true; value: Json } | { ok: false; error: RpcErrorObj }> {
    try {
      return { ok: true, value: await method.run(args) };
    } catch (e) {
      if (e instanceof ParamError)
        return { ok: false, error: { code: -32602, message: "Invalid params", data: e.message } };
      if (e instanceof MethodError)
        return { ok: false, error: { code: -32603, message: "Internal error", data: e.message } };
      return { ok: false, error: { code: -32603, message: "Internal error", data: "internal error" } };
    }
  }

  /** Handles one HTTP request (JSON-RPC POST, or a URI GET). */
  async handle(req: RpcHttpRequest): Promise<RpcHttpResponse> {
    const q = req.target.indexOf("?");
    const path = q < 0 ? req.target : req.target.slice(0, q);
    if (req.method === "GET" || req.method === "HEAD") {
      if (path === "/" && q < 0) return this.#endpoints();
      return this.#uri(path.slice(1), q < 0 ? "" : req.target.slice(q + 1));
    }
    return this.#jsonRpc(path, req.body);
  }

  #endpoints(): RpcHttpResponse {
    const items = this.methods.map((n) => `<a href="//${n}">//${n}</a></br>`).join("\n");
    return {
      status: 200,
      contentType: "text/html",
      body: `<html><body><br>Available endpoints:<br>${items}</body></html>`,
    };
  }

  async #uri(name: string, query: string): Promise<RpcHttpResponse> {
    const method = this.#methods.get(name);
    if (method === undefined)
      return { status: 404, contentType: "text/plain; charset=utf-8", body: "404 page not found\n" };
    const args = new Map<string, Arg>();
    try {
      for (const part of query.split("&")) {
        if (part === "") continue;
        const eq = part.indexOf("=");
        const k = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, " "));
        const v = decodeURIComponent((eq < 0 ? "" : part.slice(eq + 1)).replace(/\+/g, " "));
        if (method.args.includes(k) && v !== "") args.set(k, { kind: "uri", text: v });
      }
    } catch {
      return respond(500, {
        jsonrpc: "2.0",
        id: -1,
        error: {
          code: -32602,
          message: "Invalid params",
          data: "error converting http params to arguments: invalid URL escape",
        },
      });
    }
    const r = await this.#call(method, new Args(args, "http"));
    return r.ok
      ? respond(200, { jsonrpc: "2.0", id: -1, result: r.value })
      : respond(500, { jsonrpc: "2.0", id: -1, error: r.error });
  }

  async #jsonRpc(path: string, body: string): Promise<RpcHttpResponse> {
    if (body.trim() === "") return this.#endpoints();
    if (exceedsJsonDepth(body)) return parseError("error unmarshaling request: exceeded max depth");
    let parsed: Json;
    try {
      parsed = JSON.parse(body);
    } catch (e) {
      return parseError(`error unmarshaling request: ${e instanceof Error ? e.message : String(e)}`);
    }
    const batch = Array.isArray(parsed);
    const requests = batch ? (parsed as Json[]) : [parsed];
    if (requests.length > MAX_BATCH)
      return parseError(`error unmarshaling request: batch of ${requests.length} requests exceeds ${MAX_BATCH}`);
    for (const r of requests) {
      const bad = requestShapeError(r);
      if (bad !== undefined) return parseError(`error unmarshaling request: ${bad}`);
    }
    const responses: Json[] = [];
    for (const r of requests as Record<string, Json>[]) {
      if (!("id" in r) || r.id === null) continue;
      const id = r.id as Id;
      const fail = (error: RpcErrorObj) => responses.push({ jsonrpc: "2.0", id, error });
      if (path.length > 1) {
        fail({ code: -32600, message: "Invalid Request", data: `path ${path} is invalid` });
        continue;
      }
      const method = typeof r.method === "string" ? this.#methods.get(r.method) : undefined;
      if (method === undefined) {
        fail({ code: -32601, message: "Method not found" });
        continue;
      }
      const args = new Map<string, Arg>();
      const params = r.params;
      if (Array.isArray(params)) {
        if (params.length > method.args.length) {
          fail({
            code: -32602,
            message: "Invalid params",
            data: `error converting json params to arguments: expected ${method.args.length} parameters (${JSON.stringify(method.args)}), got ${params.length} (${JSON.stringify(params).slice(0, 200)})`,
          });
          continue;
        }
        params.forEach((v, i) => {
          args.set(method.args[i]!, { kind: "json", value: v });
        });
      } else if (params !== null && typeof params === "object") {
        for (const n of method.args)
          if (n in params) args.set(n, { kind: "json", value: (params as Record<string, Json>)[n] });
      } else if (params !== undefined && params !== null) {
        fail({
          code: -32602,
          message: "Invalid params",
          data: "error converting json params to arguments: params must be an object or an array",
        });
        continue;
      }
      const out = await this.#call(method, new Args(args, "json"));
      responses.push(out.ok ? { jsonrpc: "2.0", id, result: out.value } : { jsonrpc: "2.0", id, error: out.error });
    }
    if (responses.length === 0) return { status: 200, contentType: "application/json", body: "" };
    return respond(200, batch ? responses : responses[0]);
  }
}

/** Why a JSON value is not a JSON-RPC request object (CometBFT fails to unmarshal it), or undefined. */
function requestShapeError(r: Json): string | undefined {
  if (r === null || typeof r !== "object" || Array.isArray(r))
    return "json: cannot unmarshal into Go value of type types.RPCRequest";
  const o = r as Record<string, Json>;
  if ("id" in o && o.id !== null && typeof o.id !== "string" && typeof o.id !== "number")
    return `JSON-RPC ID (${JSON.stringify(o.id)}) is of unknown type`;
  if ("method" in o && typeof o.method !== "string")
    return "json: cannot unmarshal method into Go struct field of type string";
  return undefined;
}

const respond = (status: number, value: Json): RpcHttpResponse => ({
  status,
  contentType: "application/json",
  body: JSON.stringify(value, null, 2),
});

const parseError = (data: string): RpcHttpResponse =>
  respond(500, { jsonrpc: "2.0", error: { code: -32700, message: "Parse error", data } });
