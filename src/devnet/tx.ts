import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { type Any, AnySchema } from "@bufbuild/protobuf/wkt";
import { sha256 } from "@noble/hashes/sha2.js";
import type { SimTx, UpgradeMessage, VoteOptionName } from "../app/types.js";
import type { Coin, Coins } from "../bank/coins.js";
import { toHex } from "../core/bytes.js";
import { type ChainError, err, ok, type RegisteredError, type Result, wrap } from "../core/errors.js";
import { type Namespace, namesOf } from "../core/namespace.js";
import { PubKeySchema } from "../gen/chain/crypto/secp256k1/keys_pb.js";
import { VoteOption } from "../gen/chain/gov/v1/gov_pb.js";
import {
  MsgCancelProposalSchema,
  MsgDepositSchema,
  MsgSubmitProposalSchema,
  MsgVoteSchema,
} from "../gen/chain/gov/v1/tx_pb.js";
import { SignMode } from "../gen/chain/tx/signing/v1beta1/signing_pb.js";
import {
  type AuthInfo,
  AuthInfoSchema,
  SignDocSchema,
  type TxBody,
  TxBodySchema,
  type TxRaw,
  TxRawSchema,
} from "../gen/chain/tx/v1beta1/tx_pb.js";
import { MsgCancelUpgradeSchema, MsgSoftwareUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import { type KeyRecord, signBytes } from "./keyring.js";
import { adr027Violation, rejectUnknownFields } from "./strict-decode.js";

/**
 * The devnet's transactions, as the reference encodes and signs them (x/auth/tx, SIGN_MODE_DIRECT):
 *
 * - On the wire a transaction is `chain.tx.v1beta1.TxRaw` bytes {body_bytes, auth_info_bytes, signatures}. Its hash
 *   is the upper-case hex SHA-256 of those bytes (what CometBFT and the tx index key it by).
 * - A signature is 64-byte compact low-S secp256k1 ECDSA over sha256 of `SignDoc{body_bytes, auth_info_bytes,
 *   chain_id, account_number}`; the signer's sequence is in its SignerInfo, so a changed chain id, account number or
 *   sequence invalidates the signature.
 * - Messages are Any-packed with type URL `/` + full name: `/chain.gov.v1.MsgSubmitProposal` (whose `messages` are
 *   `/chain.upgrade.v1beta1.MsgSoftwareUpgrade` or `MsgCancelUpgrade`), `MsgDeposit`, `MsgVote`, `MsgCancelProposal`,
 *   and the two upgrade messages sent directly (signed by their authority).
 * - Public keys are `/chain.crypto.secp256k1.PubKey` {key: 33 bytes}.
 *
 * Deviation (documented in docs/node-api.md): the simulated application executes one message per transaction, so a
 * body with several messages is rejected with `invalid request`.
 */
export const MSG_SUBMIT_PROPOSAL = "/chain.gov.v1.MsgSubmitProposal";
export const MSG_DEPOSIT = "/chain.gov.v1.MsgDeposit";
export const MSG_VOTE = "/chain.gov.v1.MsgVote";
export const MSG_CANCEL_PROPOSAL = "/chain.gov.v1.MsgCancelProposal";
export const MSG_SOFTWARE_UPGRADE = "/chain.upgrade.v1beta1.MsgSoftwareUpgrade";
export const MSG_CANCEL_UPGRADE = "/chain.upgrade.v1beta1.MsgCancelUpgrade";

/** The reference's root errors of tx decoding and the ante handler, by their registered codes. */
export const TxErrors = {
  ErrTxDecode: reg(2, "tx parse error"),
  ErrUnauthorized: reg(4, "unauthorized"),
  ErrInsufficientFunds: reg(5, "insufficient funds"),
  ErrInvalidPubKey: reg(8, "invalid pubkey"),
  ErrUnknownAddress: reg(9, "unknown address"),
  ErrInvalidCoins: reg(10, "invalid coins"),
  ErrOutOfGas: reg(11, "out of gas"),
  ErrMemoTooLarge: reg(12, "memo too large"),
  ErrInsufficientFee: reg(13, "insufficient fee"),
  ErrNoSignatures: reg(15, "no signatures supplied"),
  ErrInvalidRequest: reg(18, "invalid request"),
  ErrTxTooLarge: reg(21, "tx too large"),
  ErrTxInMempoolCache: reg(19, "tx already in mempool"),
  ErrTxTimeoutHeight: reg(30, "tx timeout height"),
  ErrUnknownExtensionOptions: reg(31, "unknown extension options"),
  ErrWrongSequence: reg(32, "incorrect account sequence"),
  /** Tx.ValidateBasic's `missing fee` is a plain Go error: ABCI reports it as code 1 of codespace `undefined`. */
  ErrMissingFee: Object.freeze({ codespace: "undefined", code: 1, description: "missing fee" }),
} as const;

function reg(code: number, description: string): RegisteredError {
  return Object.freeze({ codespace: "sdk", code, description });
}

export const DEFAULT_GAS = 200_000n;
/** x/auth default params: max memo characters, tx size cost per byte, secp256k1 verification cost. */
export const MAX_MEMO_CHARACTERS = 256;
export const TX_SIZE_COST_PER_BYTE = 10n;
export const SIG_VERIFY_COST_SECP256K1 = 1000n;

/** The SDK's Any: type URL `/` + full name (protobuf-es's own `anyPack` uses `type.googleapis.com/`). */
export const packAny = <D extends DescMessage>(schema: D, m: MessageShape<D>): Any =>
  create(AnySchema, { typeUrl: `/${schema.typeName}`, value: toBinary(schema, m) });

/** One decoded message: what the application executes, who must sign it, what it spends. */
export interface DecodedMsg {
  readonly typeUrl: string;
  readonly signer: string;
  readonly spend: Coins;
  readonly sim: SimTx;
  /** The module whose message server handles it (the `message.module` event attribute). */
  readonly module: "gov" | "upgrade";
}

export interface DecodedTx {
  readonly bytes: Uint8Array;
  readonly hash: string;
  readonly raw: TxRaw;
  readonly body: TxBody;
  readonly authInfo: AuthInfo;
  readonly msgs: readonly DecodedMsg[];
}

const parseError = (detail: string): ChainError => wrap(TxErrors.ErrTxDecode, detail);

function decode<D extends DescMessage>(schema: D, bytes: Uint8Array): Result<MessageShape<D>, ChainError> {
  try {
    return ok(fromBinary(schema, bytes));
  } catch (e) {
    return err(parseError(e instanceof Error ? e.message : String(e)));
  }
}

export const txHash = (bytes: Uint8Array): string => toHex(sha256(bytes)).toUpperCase();

function coinsOf(cs: readonly { denom: string; amount: string }[]): Result<Coin[], ChainError> {
  const out: Coin[] = [];
  for (const c of cs) {
    if (!/^[0-9]{1,77}$/.test(c.amount)) return err(wrap(TxErrors.ErrInvalidCoins, `${c.amount}${c.denom}`));
    out.push({ denom: c.denom, amount: BigInt(c.amount) });
  }
  return ok(out);
}

const VOTE_NAMES: Partial<Record<number, VoteOptionName>> = {
  [VoteOption.YES]: "yes",
  [VoteOption.NO]: "no",
  [VoteOption.ABSTAIN]: "abstain",
  [VoteOption.NO_WITH_VETO]: "no_with_veto",
};

const unresolved = (url: string): ChainError => parseError(`unable to resolve type URL ${url}`);

/** The `chain` type URL of a type URL in namespace `ns`, or undefined when it is not in that namespace. */
function chainTypeUrl(typeUrl: string, ns: Namespace): string | undefined {
  const name = namesOf(ns).typeName(typeUrl);
  return name === undefined ? undefined : namesOf("chain").typeUrl(name);
}

function upgradeInput(a: Any, ns: Namespace): Result<UpgradeMessage, ChainError> {
  const url = chainTypeUrl(a.typeUrl, ns);
  if (url === MSG_SOFTWARE_UPGRADE) {
    const m = decode(MsgSoftwareUpgradeSchema, a.value);
    if (!m.ok) return m;
    const p = m.value.plan;
    return ok({
      kind: "softwareUpgrade",
      authority: m.value.authority,
      plan: {
        name: p?.name ?? "",
        height: p?.height ?? 0n,
        info: p?.info ?? "",
        ...(p?.time === undefined ? {} : { time: { seconds: p.time.seconds, nanos: p.time.nanos } }),
        ...(p?.upgradedClientState === undefined
          ? {}
          : { upgradedClientState: { typeUrl: p.upgradedClientState.typeUrl, value: p.upgradedClientState.value } }),
      },
    });
  }
  if (url === MSG_CANCEL_UPGRADE) {
    const m = decode(MsgCancelUpgradeSchema, a.value);
    return m.ok ? ok({ kind: "cancelUpgrade", authority: m.value.authority }) : m;
  }
  return err(unresolved(a.typeUrl));
}

/**
 * Decodes one Any-packed message into the application's transaction. Its type URL is in namespace `ns` (the wire's);
 * the decoded message keeps it as sent (`typeUrl`, the `message.action` event).
 */
export function decodeMsg(a: Any, ns: Namespace = "chain"): Result<DecodedMsg, ChainError> {
  const base = { typeUrl: a.typeUrl };
  switch (chainTypeUrl(a.typeUrl, ns)) {
    case MSG_SUBMIT_PROPOSAL: {
      const m = decode(MsgSubmitProposalSchema, a.value);
      if (!m.ok) return m;
      const inner: UpgradeMessage[] = [];
      for (const x of m.value.messages) {
        const u = upgradeInput(x, ns);
        if (!u.ok) return u;
        inner.push(u.value);
      }
      const deposit = coinsOf(m.value.initialDeposit);
      if (!deposit.ok) return deposit;
      const v = m.value;
      return ok({
        ...base,
        module: "gov",
        signer: v.proposer,
        spend: deposit.value,
        sim: {
          kind: "submitProposal",
          proposer: v.proposer,
          messages: inner,
          initialDeposit: deposit.value,
          title: v.title,
          summary: v.summary,
          metadata: v.metadata,
          expedited: v.expedited,
        },
      });
    }
    case MSG_DEPOSIT: {
      const m = decode(MsgDepositSchema, a.value);
      if (!m.ok) return m;
      const amount = coinsOf(m.value.amount);
      if (!amount.ok) return amount;
      const { proposalId, depositor } = m.value;
      return ok({
        ...base,
        module: "gov",
        signer: depositor,
        spend: amount.value,
        sim: { kind: "deposit", proposalId, depositor, amount: amount.value },
      });
    }
    case MSG_VOTE: {
      const m = decode(MsgVoteSchema, a.value);
      if (!m.ok) return m;
      const option = VOTE_NAMES[m.value.option];
      // The reference's MsgVote validation: `invalid vote option` (gov codespace, code 7) for 0 and unknown values.
      if (option === undefined)
        return err(wrap({ codespace: "gov", code: 7, description: "invalid vote option" }, String(m.value.option)));
      const { proposalId, voter } = m.value;
      return ok({ ...base, module: "gov", signer: voter, spend: [], sim: { kind: "vote", proposalId, voter, option } });
    }
    case MSG_CANCEL_PROPOSAL: {
      const m = decode(MsgCancelProposalSchema, a.value);
      if (!m.ok) return m;
      const { proposalId, proposer } = m.value;
      return ok({
        ...base,
        module: "gov",
        signer: proposer,
        spend: [],
        sim: { kind: "cancelProposal", proposalId, proposer },
      });
    }
    case MSG_SOFTWARE_UPGRADE:
    case MSG_CANCEL_UPGRADE: {
      const u = upgradeInput(a, ns);
      if (!u.ok) return u;
      return ok({
        ...base,
        module: "upgrade",
        signer: u.value.authority,
        spend: [],
        sim: { kind: "upgrade", signer: u.value.authority, messages: [u.value] },
      });
    }
    default:
      return err(unresolved(a.typeUrl));
  }
}

/** The interface registry's resolution of an Any type URL: the devnet's messages and public key. */
const REGISTERED: ReadonlyMap<string, DescMessage> = new Map(
  [
    MsgSubmitProposalSchema,
    MsgDepositSchema,
    MsgVoteSchema,
    MsgCancelProposalSchema,
    MsgSoftwareUpgradeSchema,
    MsgCancelUpgradeSchema,
    PubKeySchema,
  ].map((d): [string, DescMessage] => [`/${d.typeName}`, d]),
);
/** The interface registry of namespace `ns`: its type URLs resolved to the generated (`chain`) schemas. */
const resolverOf =
  (ns: Namespace) =>
  (typeUrl: string): DescMessage | undefined => {
    const url = chainTypeUrl(typeUrl, ns);
    return url === undefined ? undefined : REGISTERED.get(url);
  };

/**
 * The reference's tx decoder (x/auth/tx DefaultTxDecoder, v0.50) plus the message resolution: ADR-027 form of the
 * TxRaw bytes, then unknown fields rejected in TxRaw, the body (non-critical fields allowed there) and the auth info
 * at every depth, Any values included (`src/devnet/strict-decode.ts`); then every message resolved. Any failure is
 * `<detail>: tx parse error` (code 2), or the validation error.
 */
export function decodeTx(bytes: Uint8Array, ns: Namespace = "chain"): Result<DecodedTx, ChainError> {
  const resolveAny = resolverOf(ns);
  const adr027 = adr027Violation(bytes);
  if (adr027 !== undefined) return err(parseError(adr027));
  const rawCheck = rejectUnknownFields(bytes, TxRawSchema, false, resolveAny);
  if (!rawCheck.ok) return err(parseError(rawCheck.error));
  const raw = decode(TxRawSchema, bytes);
  if (!raw.ok) return raw;
  const bodyCheck = rejectUnknownFields(raw.value.bodyBytes, TxBodySchema, true, resolveAny);
  if (!bodyCheck.ok) return err(parseError(bodyCheck.error));
  const body = decode(TxBodySchema, raw.value.bodyBytes);
  if (!body.ok) return body;
  const authCheck = rejectUnknownFields(raw.value.authInfoBytes, AuthInfoSchema, false, resolveAny);
  if (!authCheck.ok) return err(parseError(authCheck.error));
  const authInfo = decode(AuthInfoSchema, raw.value.authInfoBytes);
  if (!authInfo.ok) return authInfo;
  const msgs: DecodedMsg[] = [];
  for (const a of body.value.messages) {
    const m = decodeMsg(a, ns);
    if (!m.ok) return m;
    msgs.push(m.value);
  }
  if (msgs.length === 0) return err(wrap(TxErrors.ErrInvalidRequest, "must contain at least one message"));
  if (msgs.length > 1)
    return err(wrap(TxErrors.ErrInvalidRequest, `the devnet executes one message per transaction, got ${msgs.length}`));
  return ok({
    bytes,
    hash: txHash(bytes),
    raw: raw.value,
    body: body.value,
    authInfo: authInfo.value,
    msgs,
  });
}

/** The SIGN_MODE_DIRECT sign bytes. */
export const signDocBytes = (
  bodyBytes: Uint8Array,
  authInfoBytes: Uint8Array,
  chainId: string,
  accountNumber: bigint,
): Uint8Array => toBinary(SignDocSchema, create(SignDocSchema, { bodyBytes, authInfoBytes, chainId, accountNumber }));

export interface TxDraft {
  readonly chainId: string;
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  readonly msg: Any;
  readonly fee?: Coins;
  readonly gas?: bigint;
  readonly memo?: string;
  readonly timeoutHeight?: bigint;
  /** The wire namespace of the public key's type URL (`msg` is already in it); default `chain`. */
  readonly namespace?: Namespace;
}

/** Builds and signs a transaction from `key`'s account (SIGN_MODE_DIRECT); returns the TxRaw bytes. */
export function signTx(key: KeyRecord, d: TxDraft): Uint8Array {
  const bodyBytes = toBinary(
    TxBodySchema,
    create(TxBodySchema, { messages: [d.msg], memo: d.memo ?? "", timeoutHeight: d.timeoutHeight ?? 0n }),
  );
  const authInfoBytes = toBinary(
    AuthInfoSchema,
    create(AuthInfoSchema, {
      signerInfos: [
        {
          publicKey: {
            ...packAny(PubKeySchema, create(PubKeySchema, { key: key.pubkey })),
            typeUrl: namesOf(d.namespace ?? "chain").fromChain(`/${PubKeySchema.typeName}`),
          },
          modeInfo: { sum: { case: "single", value: { mode: SignMode.DIRECT } } },
          sequence: d.sequence,
        },
      ],
      fee: {
        amount: (d.fee ?? []).map((c) => ({ denom: c.denom, amount: c.amount.toString() })),
        gasLimit: d.gas ?? DEFAULT_GAS,
      },
    }),
  );
  const signature = signBytes(key, signDocBytes(bodyBytes, authInfoBytes, d.chainId, d.accountNumber));
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes, authInfoBytes, signatures: [signature] }));
}
