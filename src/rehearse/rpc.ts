/**
 * What the import reads from CometBFT's RPC (reference: cometbft v0.38 rpc/core `Status`, `Validators`,
 * `BlockchainInfo`; shapes in rpc/openapi/openapi.yaml).
 *
 * - `status`: chain id (`node_info.network`), latest and earliest height and time.
 * - `validators?height=H&page=P&per_page=100`, paged until `total` (at most 100 per page), the set's size bounded.
 * - `blockchain?minHeight=&maxHeight=`: up to 20 block metas, newest first; their headers are the history samples.
 * Every header and answer must belong to the chain id of `status`, and no answer may report a latest height below
 * the height the import is pinned to (`went-backwards`).
 */
import { Answer } from "./fields.js";
import { fail, type NodeReader } from "./reader.js";

export interface NodeStatus {
  readonly chainId: string;
  readonly latestHeight: number;
  readonly latestTimeMs: number;
  readonly earliestHeight: number;
}

/** A header's height and time: one sample of the block-time history. */
export interface HeaderSample {
  readonly height: number;
  readonly timeMs: number;
}

export interface RpcValidatorPower {
  /** Consensus address, upper-case hex. */
  readonly address: string;
  /** The consensus public key's bytes, base64 (matched against staking's `consensus_pubkey.key`). */
  readonly pubkey: string;
  readonly power: number;
}

/** Most validators one RPC page carries (CometBFT's `maxPerPage`). */
export const VALIDATORS_PER_PAGE = 100;
/** Most block metas one `blockchain` call returns (CometBFT's limit). */
export const METAS_PER_PAGE = 20;

export async function readStatus(reader: NodeReader): Promise<NodeStatus> {
  const result = await reader.rpc("status");
  const a = new Answer(`${reader.o.rpc}/status`, result);
  if (!a.has("sync_info") || !a.has("node_info"))
    fail("not-a-node", a.endpoint, "no node_info and sync_info: not a CometBFT RPC endpoint");
  const sync = a.obj("sync_info");
  const latestHeight = sync.int("latest_block_height");
  if (latestHeight < 1) fail("not-a-node", a.endpoint, "the node has no blocks yet (latest_block_height 0)");
  return {
    chainId: a.obj("node_info").str("network"),
    latestHeight,
    latestTimeMs: sync.timeMs("latest_block_time"),
    earliestHeight: Math.max(1, sync.int("earliest_block_height")),
  };
}

/** Checks a later status against the first: same chain, no lower height. */
export function checkStatusAgain(reader: NodeReader, first: NodeStatus, later: NodeStatus): void {
  const at = `${reader.o.rpc}/status`;
  if (later.chainId !== first.chainId)
    fail("went-backwards", at, `chain id changed during the import: ${first.chainId} then ${later.chainId}`);
  if (later.latestHeight < first.latestHeight)
    fail("went-backwards", at, `latest height went backwards: ${first.latestHeight} then ${later.latestHeight}`);
}

/** The bonded set at `height`, paged, in the node's order (power descending). */
export async function readValidators(
  reader: NodeReader,
  height: number,
  maxValidators: number,
): Promise<RpcValidatorPower[]> {
  const out: RpcValidatorPower[] = [];
  const seen = new Set<string>();
  let total = Number.POSITIVE_INFINITY;
  const pagesMax = Math.ceil(maxValidators / VALIDATORS_PER_PAGE) + 1;
  for (let page = 1; out.length < total; page++) {
    const endpoint = `${reader.o.rpc}/validators?height=${height}&page=${page}&per_page=${VALIDATORS_PER_PAGE}`;
    if (page > pagesMax) fail("pagination-loop", endpoint, `more than ${pagesMax} pages without reaching the total`);
    const a = new Answer(endpoint, await reader.rpc("validators", { height, page, per_page: VALIDATORS_PER_PAGE }));
    total = a.int("total");
    if (total > maxValidators)
      fail("too-many-validators", endpoint, `${total} validators, more than --max-validators ${maxValidators}`);
    const list = a.list("validators");
    if (list.length === 0 && out.length < total)
      fail("pagination-loop", endpoint, `an empty page after ${out.length} of ${total} validators`);
    for (const v of list) {
      const address = v.str("address");
      if (seen.has(address))
        fail("pagination-loop", endpoint, `validator ${address} again: the pages repeat (page ${page})`);
      seen.add(address);
      const pub = v.obj("pub_key");
      out.push({ address, pubkey: pub.has("value") ? pub.str("value") : "", power: v.int("voting_power") });
    }
  }
  return out;
}

/**
 * The headers of [minHeight, maxHeight] (at most 20), oldest first. Each must be in the range asked, of the chain
 * id, and the answer's `last_height` must not fall below the import's height.
 */
export async function readHeaders(
  reader: NodeReader,
  status: NodeStatus,
  minHeight: number,
  maxHeight: number,
): Promise<HeaderSample[]> {
  const endpoint = `${reader.o.rpc}/blockchain?minHeight=${minHeight}&maxHeight=${maxHeight}`;
  const a = new Answer(endpoint, await reader.rpc("blockchain", { minHeight, maxHeight }));
  const last = a.int("last_height");
  if (last < status.latestHeight)
    fail("went-backwards", endpoint, `last_height ${last} is below the import's height ${status.latestHeight}`);
  const out: HeaderSample[] = [];
  for (const meta of a.list("block_metas")) {
    const h = meta.obj("header");
    const chainId = h.str("chain_id");
    if (chainId !== status.chainId)
      fail("went-backwards", endpoint, `a header of chain ${chainId}, not ${status.chainId}: the chain id changed`);
    const height = h.int("height");
    if (height < minHeight || height > maxHeight)
      fail("pagination-loop", endpoint, `header ${height} is outside the range asked: the node ignores the range`);
    out.push({ height, timeMs: h.timeMs("time") });
  }
  if (out.length === 0) fail("malformed", endpoint, "no block metas for a stored range");
  return out.sort((x, y) => x.height - y.height);
}
