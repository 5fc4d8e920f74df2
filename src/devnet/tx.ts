import { sha256 } from "@noble/hashes/sha2.js";
import { base64 } from "@scure/base";
import { z } from "zod";
import type { SimTx, UpgradeMessage, VoteOptionName } from "../app/types.js";
import type { Coin, Coins } from "../bank/coins.js";
import { canonicalJson } from "../chain/canonical-json.js";
import { toHex, utf8 } from "../core/bytes.js";
import { type ChainError, err, ok, type RegisteredError, type Result, wrap } from "../core/errors.js";
import { type KeyRecord, signBytes } from "./keyring.js";

/**
 * The devnet's signed transaction: one JSON object, sent as the body of `POST /chain/tx/v1beta1/txs`.
 *
 *   {"chain_id","account","sequence","fee":[Coin],"gas","memo","msgs":[Msg],"pubkey","signature"}
 *
 * - `sequence` and `gas` are decimal uint64 strings; coins are `{"denom","amount"}` with a decimal amount.
 * - `msgs` holds exactly one message (a SimTx carries one), as proto-JSON with `@type` and snake_case fields:
 *   `/chain.gov.v1.MsgSubmitProposal` {messages, initial_deposit, proposer, metadata, title, summary, expedited},
 *   whose `messages` are `/chain.upgrade.v1beta1.MsgSoftwareUpgrade` {authority, plan{name, height, info}} or
 *   `/chain.upgrade.v1beta1.MsgCancelUpgrade` {authority}; `/chain.gov.v1.MsgDeposit` {proposal_id, depositor,
 *   amount}; `/chain.gov.v1.MsgVote` {proposal_id, voter, option, metadata}; `/chain.gov.v1.MsgCancelProposal`
 *   {proposal_id, proposer}; and the two upgrade messages sent directly (signed by their authority).
 * - `pubkey`: base64 of the 33-byte compressed secp256k1 key; `signature`: base64 of the 64-byte compact ECDSA
 *   signature over sha256(sign bytes).
 * - Sign bytes: the canonical JSON (keys sorted, no whitespace) of the object without `signature`. Any change to a
 *   signed field therefore invalidates the signature, the chain id and the sequence included (replay protection).
 * - The tx hash is the upper-case hex sha256 of the canonical JSON of the whole object.
 */
export interface JsonCoin {
  readonly denom: string;
  readonly amount: string;
}

export type JsonPlan = { readonly name: string; readonly height: string; readonly info: string };

export type JsonUpgradeMsg =
  | { readonly "@type": typeof MSG_SOFTWARE_UPGRADE; readonly authority: string; readonly plan: JsonPlan }
  | { readonly "@type": typeof MSG_CANCEL_UPGRADE; readonly authority: string };

export type JsonMsg =
  | {
      readonly "@type": typeof MSG_SUBMIT_PROPOSAL;
      readonly messages: readonly JsonUpgradeMsg[];
      readonly initial_deposit: readonly JsonCoin[];
      readonly proposer: string;
      readonly metadata: string;
      readonly title: string;
      readonly summary: string;
      readonly expedited: boolean;
    }
  | {
      readonly "@type": typeof MSG_DEPOSIT;
      readonly proposal_id: string;
      readonly depositor: string;
      readonly amount: readonly JsonCoin[];
    }
  | {
      readonly "@type": typeof MSG_VOTE;
      readonly proposal_id: string;
      readonly voter: string;
      readonly option: VoteOptionText;
      readonly metadata: string;
    }
  | { readonly "@type": typeof MSG_CANCEL_PROPOSAL; readonly proposal_id: string; readonly proposer: string }
  | JsonUpgradeMsg;

export interface UnsignedTx {
  readonly chain_id: string;
  readonly account: string;
  readonly sequence: string;
  readonly fee: readonly JsonCoin[];
  readonly gas: string;
  readonly memo: string;
  readonly msgs: readonly JsonMsg[];
  readonly pubkey: string;
}

export interface SignedTx extends UnsignedTx {
  readonly signature: string;
}

export const MSG_SUBMIT_PROPOSAL = "/chain.gov.v1.MsgSubmitProposal";
export const MSG_DEPOSIT = "/chain.gov.v1.MsgDeposit";
export const MSG_VOTE = "/chain.gov.v1.MsgVote";
export const MSG_CANCEL_PROPOSAL = "/chain.gov.v1.MsgCancelProposal";
export const MSG_SOFTWARE_UPGRADE = "/chain.upgrade.v1beta1.MsgSoftwareUpgrade";
export const MSG_CANCEL_UPGRADE = "/chain.upgrade.v1beta1.MsgCancelUpgrade";

export const VOTE_OPTIONS = {
  VOTE_OPTION_YES: "yes",
  VOTE_OPTION_NO: "no",
  VOTE_OPTION_ABSTAIN: "abstain",
  VOTE_OPTION_NO_WITH_VETO: "no_with_veto",
} as const satisfies Record<string, VoteOptionName>;
export type VoteOptionText = keyof typeof VOTE_OPTIONS;

/** The reference's root errors of the ante handler, by their registered codes. */
export const TxErrors = {
  ErrTxDecode: reg(2, "tx parse error"),
  ErrUnauthorized: reg(4, "unauthorized"),
  ErrInsufficientFunds: reg(5, "insufficient funds"),
  ErrInvalidPubKey: reg(8, "invalid pubkey"),
  ErrUnknownAddress: reg(9, "unknown address"),
  ErrInsufficientFee: reg(13, "insufficient fee"),
  ErrInvalidRequest: reg(18, "invalid request"),
  ErrInvalidChainID: reg(28, "invalid chain-id"),
  ErrWrongSequence: reg(32, "incorrect account sequence"),
} as const;

function reg(code: number, description: string): RegisteredError {
  return Object.freeze({ codespace: "sdk", code, description });
}

export const DEFAULT_GAS = 200_000n;

// ---- shape -------------------------------------------------------------------------------------------------------

const uint64 = z.string().regex(/^(0|[1-9][0-9]{0,19})$/, "expected a decimal uint64 string");
const int64 = z.string().regex(/^-?(0|[1-9][0-9]{0,18})$/, "expected a decimal int64 string");
const coin = z.strictObject({ denom: z.string(), amount: uint64 });
const plan = z.strictObject({ name: z.string(), height: int64, info: z.string() });
const softwareUpgrade = z.strictObject({
  "@type": z.literal(MSG_SOFTWARE_UPGRADE),
  authority: z.string(),
  plan,
});
const cancelUpgrade = z.strictObject({ "@type": z.literal(MSG_CANCEL_UPGRADE), authority: z.string() });
const upgradeMsg = z.discriminatedUnion("@type", [softwareUpgrade, cancelUpgrade]);
const msg = z.discriminatedUnion("@type", [
  z.strictObject({
    "@type": z.literal(MSG_SUBMIT_PROPOSAL),
    messages: z.array(upgradeMsg),
    initial_deposit: z.array(coin),
    proposer: z.string(),
    metadata: z.string(),
    title: z.string(),
    summary: z.string(),
    expedited: z.boolean(),
  }),
  z.strictObject({
    "@type": z.literal(MSG_DEPOSIT),
    proposal_id: uint64,
    depositor: z.string(),
    amount: z.array(coin),
  }),
  z.strictObject({
    "@type": z.literal(MSG_VOTE),
    proposal_id: uint64,
    voter: z.string(),
    option: z.enum(Object.keys(VOTE_OPTIONS) as [VoteOptionText, ...VoteOptionText[]]),
    metadata: z.string(),
  }),
  z.strictObject({ "@type": z.literal(MSG_CANCEL_PROPOSAL), proposal_id: uint64, proposer: z.string() }),
  softwareUpgrade,
  cancelUpgrade,
]);
const signedTx = z.strictObject({
  chain_id: z.string(),
  account: z.string(),
  sequence: uint64,
  fee: z.array(coin),
  gas: uint64,
  memo: z.string(),
  msgs: z.array(msg).length(1, "a transaction carries exactly one message"),
  pubkey: z.string(),
  signature: z.string(),
});

const parseError = (detail: string): ChainError => wrap(TxErrors.ErrTxDecode, detail);

/** Decodes the request body. Any shape error is `<detail>: tx parse error` (sdk code 2). */
export function decodeTx(body: string): Result<SignedTx, ChainError> {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch (e) {
    return err(parseError(e instanceof Error ? e.message : String(e)));
  }
  const r = signedTx.safeParse(data);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const path = issue.path.map(String).join(".");
    return err(parseError(path === "" ? issue.message : `${path}: ${issue.message}`));
  }
  return ok(r.data as SignedTx);
}

// ---- signing -----------------------------------------------------------------------------------------------------

/** The bytes a signature covers: canonical JSON of the transaction without its signature. */
export function signDoc(tx: UnsignedTx): Uint8Array {
  const { signature: _drop, ...rest } = tx as UnsignedTx & { signature?: string };
  return utf8(canonicalJson(rest));
}

export const txHash = (tx: SignedTx): string => toHex(sha256(utf8(canonicalJson(tx)))).toUpperCase();

export interface TxDraft {
  readonly chainId: string;
  readonly sequence: bigint;
  readonly msg: JsonMsg;
  readonly fee?: Coins;
  readonly gas?: bigint;
  readonly memo?: string;
}

export const jsonCoins = (coins: Coins): JsonCoin[] =>
  coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() }));

/** Builds and signs a transaction from `key`'s account. */
export function signTx(key: KeyRecord, d: TxDraft): SignedTx {
  const unsigned: UnsignedTx = {
    chain_id: d.chainId,
    account: key.address,
    sequence: d.sequence.toString(),
    fee: jsonCoins(d.fee ?? []),
    gas: (d.gas ?? DEFAULT_GAS).toString(),
    memo: d.memo ?? "",
    msgs: [d.msg],
    pubkey: base64.encode(key.pubkey),
  };
  return { ...unsigned, signature: base64.encode(signBytes(key, signDoc(unsigned))) };
}

/** base64 text → bytes; undefined when malformed. */
export function decodeBase64(text: string): Uint8Array | undefined {
  try {
    return base64.decode(text);
  } catch {
    return undefined;
  }
}

// ---- messages ----------------------------------------------------------------------------------------------------

const coinsOf = (cs: readonly JsonCoin[]): Coin[] => cs.map((c) => ({ denom: c.denom, amount: BigInt(c.amount) }));

const upgradeInput = (m: JsonUpgradeMsg): UpgradeMessage =>
  m["@type"] === MSG_SOFTWARE_UPGRADE
    ? {
        kind: "softwareUpgrade",
        authority: m.authority,
        plan: { name: m.plan.name, height: BigInt(m.plan.height), info: m.plan.info },
      }
    : { kind: "cancelUpgrade", authority: m.authority };

/** The address that must sign a message (its `chain.msg.v1.signer` field). */
export function msgSigner(m: JsonMsg): string {
  switch (m["@type"]) {
    case MSG_SUBMIT_PROPOSAL:
      return m.proposer;
    case MSG_DEPOSIT:
      return m.depositor;
    case MSG_VOTE:
      return m.voter;
    case MSG_CANCEL_PROPOSAL:
      return m.proposer;
    case MSG_SOFTWARE_UPGRADE:
    case MSG_CANCEL_UPGRADE:
      return m.authority;
  }
}

/** Coins a message moves out of its signer's account (what the funds check compares with the balance). */
export function msgSpend(m: JsonMsg): Coins {
  if (m["@type"] === MSG_SUBMIT_PROPOSAL) return coinsOf(m.initial_deposit);
  if (m["@type"] === MSG_DEPOSIT) return coinsOf(m.amount);
  return [];
}

/** The simulated application's transaction for a decoded message signed by `account`. */
export function toSimTx(m: JsonMsg, account: string): SimTx {
  switch (m["@type"]) {
    case MSG_SUBMIT_PROPOSAL:
      return {
        kind: "submitProposal",
        proposer: m.proposer,
        messages: m.messages.map(upgradeInput),
        initialDeposit: coinsOf(m.initial_deposit),
        title: m.title,
        summary: m.summary,
        metadata: m.metadata,
        expedited: m.expedited,
      };
    case MSG_DEPOSIT:
      return { kind: "deposit", proposalId: BigInt(m.proposal_id), depositor: m.depositor, amount: coinsOf(m.amount) };
    case MSG_VOTE:
      return { kind: "vote", proposalId: BigInt(m.proposal_id), voter: m.voter, option: VOTE_OPTIONS[m.option] };
    case MSG_CANCEL_PROPOSAL:
      return { kind: "cancelProposal", proposalId: BigInt(m.proposal_id), proposer: m.proposer };
    case MSG_SOFTWARE_UPGRADE:
    case MSG_CANCEL_UPGRADE:
      return { kind: "upgrade", signer: account, messages: [upgradeInput(m)] };
  }
}

export { coinsOf };
