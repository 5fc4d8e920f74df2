import { ed25519 } from "@noble/curves/ed25519.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { base64 } from "@scure/base";
import type { BlockMeta } from "../../chain/block-store.js";
import { nameToAddressBytes } from "../../core/address.js";
import { toHex, utf8 } from "../../core/bytes.js";
import type { RpcEvent, RpcTxResult, RpcValidator } from "./source.js";

/**
 * CometBFT v0.38's JSON renderings of its types (cmtjson): 64-bit integers as decimal strings, byte slices as base64,
 * hashes and addresses (HexBytes) as upper-case hex, times as RFC 3339 with nanoseconds trimmed.
 */
export type BlockIdJson = BlockMeta["block_id"];

export const EMPTY_BLOCK_ID: BlockIdJson = Object.freeze({ hash: "", parts: Object.freeze({ total: 0, hash: "" }) });

/** The header as CometBFT renders it (the block meta's header with the app version). */
export function headerJson(meta: BlockMeta) {
  const h = meta.header;
  return {
    version: { block: h.version.block, app: "0" },
    chain_id: h.chain_id,
    height: h.height,
    time: h.time,
    last_block_id: h.last_block_id,
    last_commit_hash: h.last_commit_hash,
    data_hash: h.data_hash,
    validators_hash: h.validators_hash,
    next_validators_hash: h.next_validators_hash,
    consensus_hash: h.consensus_hash,
    app_hash: h.app_hash,
    last_results_hash: h.last_results_hash,
    evidence_hash: h.evidence_hash,
    proposer_address: h.proposer_address,
  };
}

export const blockMetaJson = (meta: BlockMeta) => ({
  block_id: meta.block_id,
  block_size: meta.block_size,
  header: headerJson(meta),
  num_txs: meta.num_txs,
});

/**
 * The consensus key of a validator: an ed25519 key whose secret is sha256("chainsim/consensus/" + name). The
 * simulated chains have no consensus keys of their own; this one signs the commits the RPC shows.
 */
export function consensusKey(name: string): { readonly secret: Uint8Array; readonly pubkey: Uint8Array } {
  const secret = sha256(utf8(`chainsim/consensus/${name}`));
  return { secret, pubkey: ed25519.getPublicKey(secret) };
}

/** The RPC's validators of a chain whose validators are named (consensus address sha256(name)[0:20]). */
export const rpcValidators = (
  validators: readonly { readonly name: string; readonly power: number }[],
): RpcValidator[] =>
  validators.map((v) => ({
    name: v.name,
    address: nameToAddressBytes(v.name),
    pubkey: consensusKey(v.name).pubkey,
    power: BigInt(v.power),
  }));

/** BlockIDFlagCommit. */
const BLOCK_ID_FLAG_COMMIT = 2;

/**
 * The commit of block `meta`: one signature per validator (ed25519 over `<chain id>/<height>/<block hash>`, not
 * CometBFT's canonical vote bytes), timestamped with the block time.
 */
export function commitJson(meta: BlockMeta, validators: readonly RpcValidator[]) {
  const sigs = validators.map((v) => {
    const key = consensusKey(v.name);
    const msg = utf8(`${meta.header.chain_id}/${meta.header.height}/${meta.block_id.hash}`);
    return {
      block_id_flag: BLOCK_ID_FLAG_COMMIT,
      validator_address: toHex(v.address).toUpperCase(),
      timestamp: meta.header.time,
      signature: base64.encode(ed25519.sign(msg, key.secret)),
    };
  });
  return { height: meta.header.height, round: 0, block_id: meta.block_id, signatures: sigs };
}

/** The last_commit of the block at height 1 (none). */
export const EMPTY_COMMIT = Object.freeze({ height: "0", round: 0, block_id: EMPTY_BLOCK_ID, signatures: [] });

export const eventsJson = (events: readonly RpcEvent[]) =>
  events.map((e) => ({
    type: e.type,
    attributes: e.attributes.map((a) => ({ key: a.key, value: a.value, index: a.index })),
  }));

/** ExecTxResult (and, without `info`, ResponseCheckTx), as cmtjson renders them. */
export const txResultJson = (r: RpcTxResult) => ({
  code: r.code,
  data: r.data === undefined || r.data.length === 0 ? null : base64.encode(r.data),
  log: r.log,
  info: "",
  gas_wanted: r.gasWanted.toString(),
  gas_used: r.gasUsed.toString(),
  events: eventsJson(r.events),
  codespace: r.codespace,
});

export const pubkeyJson = (pubkey: Uint8Array) => ({ type: "tendermint/PubKeyEd25519", value: base64.encode(pubkey) });

export const upperHex = (b: Uint8Array): string => toHex(b).toUpperCase();
