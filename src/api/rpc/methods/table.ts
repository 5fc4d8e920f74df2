import type { BlockMeta } from "../../../chain/block-store.js";
import { type Args, internal, type Json } from "../args.js";
import type { RpcSource } from "../source.js";

/**
 * The CometBFT v0.38 RPC method table (rpc/core/routes.go), one file per area as rpc/core has them: network.ts
 * (health, status, net_info, genesis), blocks.ts (blockchain, block, block_by_hash, header, header_by_hash, commit,
 * block_results), validators.ts (validators), abci.ts (abci_info, abci_query), txs.ts (tx, tx_search,
 * num_unconfirmed_txs and the broadcasts). Each area exports a `MethodTable` built over an `RpcSource`; the handler
 * serves their union in that order (`rpcMethods`, index.ts).
 *
 * Also the helpers two areas share: CometBFT's height checks (`getHeight`) and paging (`validatePage`,
 * `validatePerPage`), which fail with CometBFT's texts through `internal`.
 */
export interface Method {
  /** Parameter names in CometBFT's order (positional JSON-RPC params map onto them). */
  readonly args: readonly string[];
  /** A method that changes the node (the broadcasts). */
  readonly write?: boolean;
  run(a: Args): Json | Promise<Json>;
}

/** Method name → method, in the order the endpoint list shows them. */
export type MethodTable = ReadonlyArray<readonly [string, Method]>;

const PER_PAGE_DEFAULT = 30;
const PER_PAGE_MAX = 100;
/** Longest scan of the block store one tx_search or block_by_hash may make. */
export const SCAN_MAX_BLOCKS = 1_000_000;

/** CometBFT `getHeight`: an explicit height must be stored; none means the latest. */
export function storedHeight(s: RpcSource, h: bigint | undefined): number {
  const latest = s.blocks.latestHeight();
  if (h === undefined) return latest;
  if (h <= 0n) internal(`height must be greater than 0, but got ${h}`);
  if (h > BigInt(latest)) internal(`height ${h} must be less than or equal to the current blockchain height ${latest}`);
  const base = s.blocks.baseHeight();
  if (h < BigInt(base)) internal(`height ${h} is not available, lowest height is ${base}`);
  return Number(h);
}

/** The stored meta of height `h` (checked by `storedHeight`), or CometBFT's not-available failure. */
export function storedMeta(s: RpcSource, h: number): BlockMeta {
  const m = s.blocks.blockMeta(h);
  return m ?? internal(`height ${h} is not available, lowest height is ${s.blocks.baseHeight()}`);
}

/** CometBFT's `validatePage` / `validatePerPage`: the slice of `total` items one page shows. */
export function pageOf(
  page: bigint | undefined,
  perPage: bigint | undefined,
  total: number,
): { start: number; size: number } {
  const size = perPage === undefined || perPage <= 0n ? PER_PAGE_DEFAULT : Math.min(Number(perPage), PER_PAGE_MAX);
  const pages = Math.max(1, Math.ceil(total / size));
  const p = page === undefined ? 1n : page;
  if (p <= 0n || p > BigInt(pages)) internal(`page should be within [1, ${pages}] range, given ${p}`);
  return { start: (Number(p) - 1) * size, size };
}
