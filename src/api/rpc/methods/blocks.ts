import { base64, hex } from "@scure/base";
import type { BlockMeta } from "../../../chain/block-store.js";
import { internal } from "../args.js";
import {
  blockMetaJson,
  commitJson,
  EMPTY_BLOCK_ID,
  EMPTY_COMMIT,
  headerJson,
  txResultJson,
  upperHex,
} from "../shapes.js";
import type { RpcSource } from "../source.js";
import { type MethodTable, SCAN_MAX_BLOCKS, storedHeight, storedMeta } from "./table.js";

/**
 * The block methods of CometBFT v0.38's RPC (rpc/core/blocks.go): blockchain, block, block_by_hash, header,
 * header_by_hash, commit and block_results.
 *
 * 1. A height goes through `storedHeight` (CometBFT's `getHeight`): none is the latest; 0 or less, above the latest
 *    or below the store's base fails with CometBFT's text.
 * 2. A hash lookup scans the store from the latest block down (at most SCAN_MAX_BLOCKS); an unknown hash is an
 *    empty block id with a null block (or a null header), not an error, as CometBFT answers.
 * 3. `blockchain` clamps [minHeight, maxHeight] to the store and to the last BLOCKCHAIN_LIMIT heights, newest
 *    first (`filterMinMax`).
 */
const BLOCKCHAIN_LIMIT = 20;

export function blockMethods(s: RpcSource): MethodTable {
  return [
    [
      "blockchain",
      { args: ["minHeight", "maxHeight"], run: (a) => blockchain(s, a.int("minHeight"), a.int("maxHeight")) },
    ],
    ["block", { args: ["height"], run: (a) => blockJson(s, storedMeta(s, storedHeight(s, a.int("height")))) }],
    [
      "block_by_hash",
      {
        args: ["hash"],
        run: (a) => {
          const meta = findBlock(s, upperHex(a.bytes("hash", "base64")));
          return meta === undefined ? { block_id: EMPTY_BLOCK_ID, block: null } : blockJson(s, meta);
        },
      },
    ],
    [
      "header",
      { args: ["height"], run: (a) => ({ header: headerJson(storedMeta(s, storedHeight(s, a.int("height")))) }) },
    ],
    [
      "header_by_hash",
      {
        args: ["hash"],
        run: (a) => {
          const meta = findBlock(s, upperHex(a.bytes("hash", "base64")));
          return { header: meta === undefined ? null : headerJson(meta) };
        },
      },
    ],
    [
      "commit",
      {
        args: ["height"],
        run: (a) => {
          const h = storedHeight(s, a.int("height"));
          const meta = storedMeta(s, h);
          return {
            signed_header: { header: headerJson(meta), commit: commitJson(meta, s.validators()) },
            canonical: h < s.blocks.latestHeight(),
          };
        },
      },
    ],
    ["block_results", { args: ["height"], run: (a) => blockResults(s, storedHeight(s, a.int("height"))) }],
  ];
}

function blockchain(s: RpcSource, minHeight: bigint | undefined, maxHeight: bigint | undefined) {
  let min = minHeight ?? 0n;
  let max = maxHeight ?? 0n;
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
}

/** ResultBlock: the block id and the block with its txs and the commit of the block before. */
function blockJson(s: RpcSource, meta: BlockMeta) {
  const h = Number(meta.header.height);
  const txs = s.blocks.blockTxs(h);
  const prev = h > 1 ? s.blocks.blockMeta(h - 1) : undefined;
  return {
    block_id: meta.block_id,
    block: {
      header: headerJson(meta),
      data: { txs: txs.length === 0 ? null : txs.map((t) => base64.encode(t)) },
      evidence: { evidence: [] },
      last_commit: prev === undefined ? EMPTY_COMMIT : commitJson(prev, s.validators()),
    },
  };
}

/** Scans stored blocks from the latest down for a block hash (upper-case hex). */
function findBlock(s: RpcSource, hashHex: string): BlockMeta | undefined {
  const latest = s.blocks.latestHeight();
  const base = Math.max(s.blocks.baseHeight(), latest - SCAN_MAX_BLOCKS + 1, 1);
  for (let h = latest; h >= base; h--) {
    const m = s.blocks.blockMeta(h);
    if (m?.block_id.hash === hashHex) return m;
  }
  return undefined;
}

function blockResults(s: RpcSource, h: number) {
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
}
