import { sha256 } from "@noble/hashes/sha2.js";
import { base64 } from "@scure/base";
import { type Args, internal } from "../args.js";
import { txResultJson, upperHex } from "../shapes.js";
import type { RpcBroadcast, RpcSource, RpcTxResult } from "../source.js";
import { heightRange, matches, parseQuery } from "../tx-query.js";
import { type MethodTable, pageOf, SCAN_MAX_BLOCKS } from "./table.js";

/**
 * The transaction and mempool methods of CometBFT v0.38's RPC (rpc/core/tx.go, mempool.go): tx, tx_search,
 * num_unconfirmed_txs and, when the source has a broadcast side, broadcast_tx_sync, broadcast_tx_async and
 * broadcast_tx_commit.
 *
 * 1. `tx` finds a hash at the height the source indexes it at, or scans the store; an unknown hash fails with
 *    `tx (<HASH>) not found`.
 * 2. `tx_search` parses the query (tx-query.ts), scans the heights it allows (at most SCAN_MAX_BLOCKS) in (height,
 *    index) order, reversed for `order_by=desc`, and pages the matches.
 * 3. A broadcast checks the tx first (a mempool refusal fails with its text); `broadcast_tx_commit` then waits up to
 *    the source's commit timeout for the block that includes it.
 */
export function txMethods(s: RpcSource): MethodTable {
  const table: MethodTable = [
    ["tx", { args: ["hash", "prove"], run: (a) => tx(s, a) }],
    ["tx_search", { args: ["query", "prove", "page", "per_page", "order_by"], run: (a) => txSearch(s, a) }],
    [
      "num_unconfirmed_txs",
      {
        args: [],
        run: () => {
          const p = s.mempool();
          return { n_txs: String(p.count), total: String(p.count), total_bytes: String(p.bytes), txs: null };
        },
      },
    ],
  ];
  return s.broadcast === undefined ? table : [...table, ...broadcastMethods(s, s.broadcast)];
}

function tx(s: RpcSource, a: Args) {
  const hash = upperHex(a.bytes("hash", "base64"));
  a.bool("prove");
  const at = s.txHeight?.(hash);
  const [lo, hi] = at === undefined ? [s.blocks.baseHeight(), s.blocks.latestHeight()] : [at, at];
  const found = scanTxs(s, lo, hi, (_h, x) => x === hash)[0];
  if (found === undefined) return internal(`tx (${hash}) not found`);
  return txJson(found.height, found.index, found.tx, found.result);
}

function txSearch(s: RpcSource, a: Args) {
  const q = parseQuery(a.string("query"));
  a.bool("prove");
  const page = a.int("page");
  const perPage = a.int("per_page");
  const order = a.string("order_by");
  if (order !== "" && order !== "asc" && order !== "desc")
    internal("expected order_by to be either `asc` or `desc` or empty");
  if (!q.ok) return internal(q.error);
  const [lo, hi] = heightRange(q.value, s.blocks.baseHeight(), s.blocks.latestHeight());
  const found = scanTxs(s, lo, hi, (height, hash, r) => matches(q.value, { height, hash, events: r?.events ?? [] }));
  if (order === "desc") found.reverse();
  const { start, size } = pageOf(page, perPage, found.length);
  return {
    txs: found.slice(start, start + size).map((t) => txJson(t.height, t.index, t.tx, t.result)),
    total_count: String(found.length),
  };
}

function broadcastMethods(s: RpcSource, b: RpcBroadcast): MethodTable {
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
  return [
    [
      "broadcast_tx_sync",
      {
        args: ["tx"],
        write: true,
        run: (a) => {
          const r = check(a);
          return syncJson(r.hash, r.result);
        },
      },
    ],
    [
      "broadcast_tx_async",
      {
        args: ["tx"],
        write: true,
        run: (a) => {
          const r = check(a);
          return { code: 0, data: "", log: "", codespace: "", hash: r.hash };
        },
      },
    ],
    [
      "broadcast_tx_commit",
      {
        args: ["tx"],
        write: true,
        run: async (a) => {
          const r = check(a);
          const { info: _info, ...checkTx } = txResultJson(r.result);
          if (r.result.code !== 0)
            return { check_tx: { ...checkTx, info: "" }, tx_result: {}, hash: r.hash, height: "0" };
          const height = await b.committed(r.hash, b.commitTimeoutMs);
          if (height === undefined) return internal("timed out waiting for tx to be included in a block");
          const found = scanTxs(s, height, height, (_h, x) => x === r.hash)[0];
          return {
            check_tx: { ...checkTx, info: "" },
            tx_result: txResultJson(found?.result ?? r.result),
            hash: r.hash,
            height: String(height),
          };
        },
      },
    ],
  ];
}

/** ResultTx: the tx's hash, height, index, result (empty when the source has none) and bytes. */
function txJson(height: number, index: number, tx: Uint8Array, r: RpcTxResult | undefined) {
  return {
    hash: upperHex(sha256(tx)),
    height: String(height),
    index,
    tx_result: txResultJson(r ?? { code: 0, codespace: "", log: "", gasWanted: 0n, gasUsed: 0n, events: [] }),
    tx: base64.encode(tx),
  };
}

/** Every stored tx matching `test`, in (height, index) order, within [lo, hi]. */
function scanTxs(
  s: RpcSource,
  lo: number,
  hi: number,
  test: (height: number, hash: string, r: RpcTxResult | undefined) => boolean,
) {
  const out: { height: number; index: number; tx: Uint8Array; result: RpcTxResult | undefined }[] = [];
  const from = Math.max(lo, hi - SCAN_MAX_BLOCKS + 1);
  for (let h = from; h <= hi; h++) {
    const txs = s.blocks.blockTxs(h);
    if (txs.length === 0) continue;
    const results = s.blockResults(h);
    txs.forEach((tx, i) => {
      const hash = upperHex(sha256(tx));
      if (test(h, hash, results[i])) out.push({ height: h, index: i, tx, result: results[i] });
    });
  }
  return out;
}
