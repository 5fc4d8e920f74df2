import { sha256 } from "@noble/hashes/sha2.js";
import { base64 } from "@scure/base";
import { BlockStore } from "../chain/block-store.js";
import { canonicalJson } from "../chain/canonical-json.js";
import { nameToAddressBytes } from "../core/address.js";
import { be64, fromHex, fromUtf8, readBe64, toHex, utf8 } from "../core/bytes.js";
import type { BackendWrite } from "../store/backend.js";
import type { TxEvent } from "./ante.js";
import type { LevelBackend } from "./level-backend.js";

/**
 * The devnet's block store and tx index, persisted in the LevelBackend's auxiliary keyspace and flushed in the same
 * atomic batch as the block's state commit, so the block log and the state never disagree after a crash.
 *
 * Records: `b | be64(height)` → `{"t": timeMs, "h": app hash hex, "x": [base64 of each TxRaw]}`;
 * `t | tx hash bytes` → the tx's result (TxRecord). At open the block records rebuild the in-memory BlockStore
 * (block ids, headers and metas are derived from it deterministically, as in simulations).
 */
const BLOCK = 0x62; // "b"
const TX = 0x74; // "t"

export interface TxRecord {
  readonly txhash: string;
  readonly height: string;
  readonly index: number;
  /** 0 on success; the registered error code otherwise. */
  readonly code: number;
  readonly codespace: string;
  readonly raw_log: string;
  readonly gas_wanted: string;
  readonly gas_used: string;
  /** CometBFT abci events of the tx (ante and message events), as the tx index and block_results serve them. */
  readonly events: readonly TxEvent[];
  /** The proposal id a submission created, when it succeeded. */
  readonly proposal_id?: string;
  /** ExecTxResult.data, base64: the TxMsgData of a successful transaction (absent on failure). */
  readonly data?: string;
}

interface BlockRecord {
  readonly t: number;
  readonly h: string;
  readonly x: readonly string[];
}

const blockKey = (height: number): Uint8Array => {
  const k = new Uint8Array(9);
  k[0] = BLOCK;
  k.set(be64(height), 1);
  return k;
};
const txKey = (hashHex: string): Uint8Array => {
  const h = fromHex(hashHex.toLowerCase());
  const k = new Uint8Array(1 + h.length);
  k[0] = TX;
  k.set(h, 1);
  return k;
};

export interface ChainIdentity {
  readonly chainId: string;
  readonly genesisAppHash: string;
  readonly validators: readonly { readonly name: string; readonly power: number }[];
}

/** An empty block store for the chain (what a fresh node starts from). */
export function newBlockStore(id: ChainIdentity): BlockStore<Uint8Array> {
  return new BlockStore<Uint8Array>(
    id.chainId,
    id.genesisAppHash,
    toHex(sha256(utf8(canonicalJson(id.validators.map((v) => [v.name, v.power]))))).toUpperCase(),
    id.validators.map((v) => nameToAddressBytes(v.name)),
    (tx) => tx,
  );
}

/** Rebuilds the block store from the flushed block records. */
export async function loadBlockStore(backend: LevelBackend, id: ChainIdentity): Promise<BlockStore<Uint8Array>> {
  const store = newBlockStore(id);
  for await (const [k, v] of backend.auxEntries(Uint8Array.of(BLOCK), Uint8Array.of(BLOCK + 1))) {
    const height = Number(readBe64(k, 1));
    const r = JSON.parse(fromUtf8(v)) as BlockRecord;
    store.append(
      height,
      r.t,
      r.x.map((x) => base64.decode(x)),
      r.h,
    );
  }
  return store;
}

/** The auxiliary writes that record a committed block and its tx results. */
export function blockWrites(
  height: number,
  timeMs: number,
  appHash: string,
  txs: readonly Uint8Array[],
  results: readonly TxRecord[],
): BackendWrite[] {
  const rec: BlockRecord = { t: timeMs, h: appHash, x: txs.map((t) => base64.encode(t)) };
  return [
    { key: blockKey(height), value: utf8(JSON.stringify(rec)) },
    ...results.map((r) => ({ key: txKey(r.txhash), value: utf8(JSON.stringify(r)) })),
  ];
}

/** A flushed tx result by hash (upper- or lower-case hex); undefined when unknown or malformed. */
export function readTx(backend: LevelBackend, hashHex: string): TxRecord | undefined {
  if (!/^[0-9a-fA-F]{64}$/.test(hashHex)) return undefined;
  const v = backend.getAux(txKey(hashHex));
  return v === undefined ? undefined : (JSON.parse(fromUtf8(v)) as TxRecord);
}
