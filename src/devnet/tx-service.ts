import { create } from "@bufbuild/protobuf";
import { Code as GrpcCode } from "@connectrpc/connect";
import { base64 } from "@scure/base";
import { type BoundService, bindService, statusError } from "../api/backend.js";
import type { BlockStore } from "../chain/block-store.js";
import { decodeAddress } from "../core/address.js";
import { toHex } from "../core/bytes.js";
import type { ChainError, Result } from "../core/errors.js";
import { err, ok, wrap } from "../core/errors.js";
import { formatRfc3339 } from "../core/go/time.js";
import type { Namespace } from "../core/namespace.js";
import { BaseAccountSchema } from "../gen/chain/auth/v1beta1/auth_pb.js";
import { Query as AuthQuery, QueryAccountResponseSchema } from "../gen/chain/auth/v1beta1/query_pb.js";
import { type TxResponse, TxResponseSchema } from "../gen/chain/base/abci/v1beta1/abci_pb.js";
import { PubKeySchema } from "../gen/chain/crypto/secp256k1/keys_pb.js";
import {
  BroadcastMode,
  BroadcastTxResponseSchema,
  GetTxResponseSchema,
  SimulateResponseSchema,
  Service as TxService,
} from "../gen/chain/tx/v1beta1/service_pb.js";
import { type Tx, TxSchema } from "../gen/chain/tx/v1beta1/tx_pb.js";
import type { TxEvent } from "./ante.js";
import { accountPubkey, accountSequence } from "./ante.js";
import type { TxRecord } from "./block-log.js";
import { decodeTx, packAny, TxErrors } from "./tx.js";

/**
 * CheckTx's outcome: the application's answer (code 0 = admitted to the mempool), or a refusal by the mempool itself
 * before the application sees the tx (CometBFT's errors: `tx already exists in cache`, `tx too large. Max size is N,
 * but got M`, `mempool is full: ...`).
 */
export type CheckOutcome =
  | {
      readonly kind: "checked";
      readonly hash: string;
      readonly code: number;
      readonly codespace: string;
      readonly log: string;
      readonly gasWanted: bigint;
      readonly gasUsed: bigint;
    }
  | {
      readonly kind: "mempool";
      readonly hash: string;
      readonly reason: "in-cache" | "too-large" | "full";
      readonly message: string;
    };

/** What the tx service reads of the devnet chain (DevnetChain is one). */
export interface TxServiceChain {
  readonly blocks: BlockStore<Uint8Array>;
  checkTx(bytes: Uint8Array): CheckOutcome;
  simulate(bytes: Uint8Array): Result<{ gasWanted: bigint; gasUsed: bigint; events: readonly TxEvent[] }, ChainError>;
  txResult(hash: string): TxRecord | undefined;
  /** The wire namespace its transactions' type URLs are in. */
  readonly namespace: Namespace;
}

/**
 * The devnet's transaction and account services, served over gRPC, REST (through the gateway's http rules, and the
 * POST routes of rest.ts) and CometBFT's abci_query alike:
 *
 * - `chain.tx.v1beta1.Service`: BroadcastTx (SYNC and ASYNC: CheckTx; BLOCK is refused as the reference refuses
 *   it), GetTx (a durable result with its Tx), Simulate (decoding and the ante handler, no signature check).
 * - `chain.auth.v1beta1.Query/Account`: a genesis account as a BaseAccount packed in an Any, with its number, its
 *   sequence and, once its first transaction has set it, its public key.
 */
export function txResponseOf(chain: TxServiceChain, r: TxRecord): TxResponse {
  const height = Number(r.height);
  const bytes = chain.blocks.txs(height)[r.index];
  const decoded = bytes === undefined ? undefined : decodeTx(bytes, chain.namespace);
  const tx: Tx | undefined =
    decoded?.ok === true
      ? create(TxSchema, {
          body: decoded.value.body,
          authInfo: decoded.value.authInfo,
          signatures: decoded.value.raw.signatures,
        })
      : undefined;
  const timeMs = chain.blocks.timeMs(height);
  return create(TxResponseSchema, {
    height: BigInt(height),
    txhash: r.txhash,
    codespace: r.codespace,
    code: r.code,
    // The SDK's NewResponseResultTx: the ExecTxResult's data as upper-case hex.
    data: r.data === undefined ? "" : toHex(base64.decode(r.data)).toUpperCase(),
    rawLog: r.raw_log,
    logs: [],
    info: "",
    gasWanted: BigInt(r.gas_wanted),
    gasUsed: BigInt(r.gas_used),
    ...(tx === undefined ? {} : { tx: packAny(TxSchema, tx) }),
    // Go time.RFC3339: whole seconds.
    timestamp: timeMs === undefined ? "" : formatRfc3339(Math.floor(timeMs / 1000) * 1000),
    events: r.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ ...a })) })),
  });
}

/** The TxResponse of a broadcast (the SDK's NewResponseFormatBroadcastTx, and CheckCometError for the mempool's). */
export function broadcastResponseOf(c: CheckOutcome): TxResponse {
  if (c.kind === "mempool") {
    const base = c.reason === "in-cache" ? TxErrors.ErrTxInMempoolCache : TxErrors.ErrTxTooLarge;
    return create(TxResponseSchema, { txhash: c.hash, code: base.code, codespace: base.codespace, rawLog: c.message });
  }
  return create(TxResponseSchema, { txhash: c.hash, code: c.code, codespace: c.codespace, rawLog: c.log });
}

/** A tx hash: upper-case hex SHA-256, 64 characters. */
const MAX_TX_HASH_CHARS = 64;

export function txService(chain: TxServiceChain): BoundService {
  return bindService(TxService, {
    simulate(_ctx, req) {
      if (req.txBytes.length === 0) return err(statusError(GrpcCode.InvalidArgument, "empty txBytes is not allowed"));
      const r = chain.simulate(req.txBytes);
      if (!r.ok) return r;
      return ok(
        create(SimulateResponseSchema, {
          gasInfo: { gasWanted: r.value.gasWanted, gasUsed: r.value.gasUsed },
          result: {
            log: "",
            events: r.value.events.map((e) => ({ type: e.type, attributes: e.attributes.map((a) => ({ ...a })) })),
          },
        }),
      );
    },
    getTx(_ctx, req) {
      if (req.hash === "") return err(statusError(GrpcCode.InvalidArgument, "tx hash cannot be empty"));
      // Deviation: the reference echoes any hash in its NotFound text, so a megabyte hash makes a megabyte status
      // header that the client's HTTP/2 session may not survive. A tx hash is 64 hex digits: longer is refused with
      // a bounded message.
      if (req.hash.length > MAX_TX_HASH_CHARS)
        return err(
          statusError(
            GrpcCode.InvalidArgument,
            `invalid tx hash: expected at most ${MAX_TX_HASH_CHARS} hex characters, got ${req.hash.length}`,
          ),
        );
      const r = chain.txResult(req.hash);
      if (r === undefined) return err(statusError(GrpcCode.NotFound, `tx not found: ${req.hash}`));
      const response = txResponseOf(chain, r);
      const tx = response.tx === undefined ? undefined : chain.blocks.txs(Number(r.height))[r.index];
      const decoded = tx === undefined ? undefined : decodeTx(tx, chain.namespace);
      return ok(
        create(GetTxResponseSchema, {
          ...(decoded?.ok === true
            ? {
                tx: create(TxSchema, {
                  body: decoded.value.body,
                  authInfo: decoded.value.authInfo,
                  signatures: decoded.value.raw.signatures,
                }),
              }
            : {}),
          txResponse: response,
        }),
      );
    },
    broadcastTx(_ctx, req) {
      if (req.txBytes.length === 0) return err(statusError(GrpcCode.InvalidArgument, "invalid empty tx"));
      if (req.mode !== BroadcastMode.SYNC && req.mode !== BroadcastMode.ASYNC)
        return err(
          wrap(
            TxErrors.ErrInvalidRequest,
            `unsupported return type ${modeName(req.mode)}; supported types: sync, async`,
          ),
        );
      return ok(create(BroadcastTxResponseSchema, { txResponse: broadcastResponseOf(chain.checkTx(req.txBytes)) }));
    },
  });
}

/** The auth `Account` query over the genesis accounts, whose addresses carry the chain's bech32 `prefix`. */
export function authQueryService(accountNumbers: ReadonlyMap<string, bigint>, prefix: string): BoundService {
  return bindService(AuthQuery, {
    account(ctx, req) {
      if (req.address === "") return err(statusError(GrpcCode.InvalidArgument, "Address cannot be empty"));
      if (decodeAddress(req.address, prefix) === undefined)
        return err(statusError(GrpcCode.InvalidArgument, `decoding bech32 failed: invalid address ${req.address}`));
      const number = accountNumbers.get(req.address);
      if (number === undefined) return err(statusError(GrpcCode.NotFound, `account ${req.address} not found`));
      const key = accountPubkey(ctx, req.address, prefix);
      const account = create(BaseAccountSchema, {
        address: req.address,
        ...(key === undefined ? {} : { pubKey: packAny(PubKeySchema, create(PubKeySchema, { key })) }),
        accountNumber: number,
        sequence: accountSequence(ctx, req.address, prefix),
      });
      return ok(create(QueryAccountResponseSchema, { account: packAny(BaseAccountSchema, account) }));
    },
  });
}

/** Go's `BroadcastMode.String()`: the proto enum value name, or the number for an unknown value. */
export const modeName = (m: BroadcastMode): string =>
  BroadcastMode[m] === undefined ? String(m) : `BROADCAST_MODE_${BroadcastMode[m]}`;
