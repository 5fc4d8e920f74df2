import { fromBinary } from "@bufbuild/protobuf";
import { base64 } from "@scure/base";
import { amountOf, type Coin, type Coins, formatCoins } from "../bank/coins.js";
import { BANK_STORE, BankKeeper } from "../bank/keeper.js";
import { decodeAddress } from "../core/address.js";
import { bytesEqual, concat, fromUtf8, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, errorText, ok, type Result, wrap } from "../core/errors.js";
import { type Namespace, namesOf } from "../core/namespace.js";
import { PubKeySchema } from "../gen/chain/crypto/secp256k1/keys_pb.js";
import { SignMode } from "../gen/chain/tx/signing/v1beta1/signing_pb.js";
import { Dec } from "../gov/dec.js";
import { PUBKEY_TYPE, pubkeyAddress, verifySignature } from "./keyring.js";
import {
  type DecodedTx,
  MAX_MEMO_CHARACTERS,
  SIG_VERIFY_COST_SECP256K1,
  signDocBytes,
  TX_SIZE_COST_PER_BYTE,
  TxErrors,
} from "./tx.js";

/**
 * The devnet's ante handler: the reference's decorator chain (x/auth/ante NewAnteHandler, v0.50) for one signer,
 * in its order, with its codes and texts:
 *
 *  1. extension options: none are accepted (`unknown extension options`, 31);
 *  2. ValidateBasic: a fee (`missing fee`, code 1 of codespace `undefined`), a gas limit within int64 (`invalid gas
 *     supplied; G > 9223372036854775807`, 18), at least one signature (`no signatures supplied`, 15), one signature
 *     and one signer info per signer (`wrong number of signers; expected 1, got N`, 4);
 *  3. timeout height (`block height: H, timeout height: T`, 30);
 *  4. memo length ≤ 256 bytes (Go's `len`, though the text says characters) (`maximum number of characters is 256 but received N characters`, 12);
 *  5. tx size gas: 10 per byte, against the fee's gas limit (`out of gas in location: txSize; gasWanted: W,
 *     gasUsed: U`, 11);
 *  6. fee: in CheckTx the minimum gas prices (`insufficient fees; got: X required: Y`, 13); the fee payer (the first
 *     signer) must exist (`fee payer address: A does not exist`, 9) and pay (`...: insufficient funds`, 5);
 *  7. public key: a `/chain.crypto.secp256k1.PubKey` (`/cosmos.` in that namespace) whose address is the signer (`pubKey does not match signer
 *     address A with signer index: 0`, 8), stored on the account at its first transaction;
 *  8. signature: SIGN_MODE_DIRECT, the account's sequence (`account sequence mismatch, expected N, got M`, 32), then
 *     the signature over the SignDoc (`signature verification failed; please verify account number (N), sequence
 *     (S) and chain-id (C)`, 4). A wrong chain id is a signature failure, as in the reference;
 *  9. the sequence increments.
 *
 * State lives in the `auth` store, versioned, hashed and persisted with the rest: `0x01 | address` → decimal
 * sequence, `0x02 | address` → 33-byte public key. Accounts are the genesis accounts (numbered in genesis order).
 */
export const AUTH_STORE = "auth";
export const FEE_COLLECTOR = "fee_collector";

export interface DecCoin {
  readonly denom: string;
  readonly amount: Dec;
}

export interface AnteEnv {
  readonly chainId: string;
  /** Genesis account numbers by bech32 address. */
  readonly accountNumbers: ReadonlyMap<string, bigint>;
  /** app.toml `minimum-gas-prices`; all zero (or empty) means no fee is required. */
  readonly minGasPrices: readonly DecCoin[];
  /** app.toml `[chainsim] namespace`: the type URLs transactions carry (`/cosmos.crypto.secp256k1.PubKey`). */
  readonly namespace: Namespace;
  /** genesis.json `chain.bech32Prefix`: the prefix of every account address. */
  readonly bech32Prefix: string;
}

/** A tx event (CometBFT abci.Event): what tx_search and block_results read. */
export interface TxEvent {
  readonly type: string;
  readonly attributes: readonly { readonly key: string; readonly value: string; readonly index: boolean }[];
}

const sequenceKey = (addr: Uint8Array): Uint8Array => concat(Uint8Array.of(0x01), addr);
const pubkeyKey = (addr: Uint8Array): Uint8Array => concat(Uint8Array.of(0x02), addr);

/** The account's next expected sequence (0 for an account that never sent a transaction). */
export function accountSequence(ctx: Ctx, address: string, prefix: string): bigint {
  const addr = decodeAddress(address, prefix);
  if (addr === undefined) return 0n;
  const v = ctx.kv(AUTH_STORE).get(sequenceKey(addr));
  return v === undefined ? 0n : BigInt(fromUtf8(v));
}

/** The account's public key, once its first transaction has set it. */
export function accountPubkey(ctx: Ctx, address: string, prefix: string): Uint8Array | undefined {
  const addr = decodeAddress(address, prefix);
  return addr === undefined ? undefined : ctx.kv(AUTH_STORE).get(pubkeyKey(addr));
}

/** Parses `minimum-gas-prices` (`0.025stake,1atom`); the empty string is no prices. */
export function parseGasPrices(text: string): Result<DecCoin[], string> {
  const out: DecCoin[] = [];
  for (const part of text.split(",")) {
    const item = part.trim();
    if (item === "") continue;
    const m = /^([0-9]+(?:\.[0-9]+)?)([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/.exec(item);
    if (m === null) return err(`invalid minimum gas price ${JSON.stringify(item)}`);
    const d = Dec.parse(m[1]!);
    if (!d.ok) return err(`invalid minimum gas price ${JSON.stringify(item)}: ${d.error}`);
    out.push({ denom: m[2]!, amount: d.value });
  }
  return ok(out);
}

/** The fee required for `gas` (ceil(price × gas) per denom); empty when every price is zero. */
export function requiredFees(prices: readonly DecCoin[], gas: bigint): Coins {
  const out: Coin[] = [];
  for (const p of prices) {
    if (p.amount.isZero()) continue;
    const total = p.amount.mulInt(gas);
    const whole = total.truncateInt();
    out.push({ denom: p.denom, amount: total.gt(Dec.fromInt(whole)) ? whole + 1n : whole });
  }
  return out;
}

/** The largest gas limit Tx.ValidateBasic accepts (`MaxGasWanted`, 2^63 - 1). */
const MAX_GAS_WANTED = (1n << 63n) - 1n;

/**
 * Tx.ValidateBasic (types/tx/types.go), in its order: a missing fee is an unregistered error (code 1, codespace
 * `undefined`, log `missing fee`), a gas limit over int64 `invalid gas supplied; G > 9223372036854775807` (18), no
 * signatures `no signatures supplied` (15). The wrong-number-of-signers check follows in the caller.
 */
function validateBasic(tx: DecodedTx): ChainError | undefined {
  const fee = tx.authInfo.fee;
  if (fee === undefined) return wrap(TxErrors.ErrMissingFee);
  if (fee.gasLimit > MAX_GAS_WANTED)
    return wrap(TxErrors.ErrInvalidRequest, `invalid gas supplied; ${fee.gasLimit} > ${MAX_GAS_WANTED}`);
  if (tx.raw.signatures.length === 0) return wrap(TxErrors.ErrNoSignatures);
  return undefined;
}

/** Gas the ante handler accounts for: the tx size cost and one secp256k1 verification. */
export const anteGas = (tx: DecodedTx): bigint =>
  BigInt(tx.bytes.length) * TX_SIZE_COST_PER_BYTE + SIG_VERIFY_COST_SECP256K1;

export interface AnteOk {
  readonly signer: string;
  readonly fee: Coins;
  readonly gasWanted: bigint;
  readonly gasUsed: bigint;
  readonly events: readonly TxEvent[];
}

export interface AnteMode {
  /** CheckTx (mempool admission): minimum gas prices apply. */
  readonly check: boolean;
  /** This account's transactions already admitted but not yet in a block (CheckTx's state is ahead by them). */
  readonly pending: bigint;
  /** Height of the block the tx would execute in. */
  readonly height: number;
  /** Simulate: the signature is not verified (clients simulate with an empty one) and nothing is written. */
  readonly simulate?: boolean;
}

const attr = (key: string, value: string) => ({ key, value, index: true });

type SignerInfo = DecodedTx["authInfo"]["signerInfos"][number];

/**
 * Runs the chain over `ctx`. In delivery, on success the fee is paid into the fee collector and the sequence (and, the
 * first time, the public key) written; on error nothing is written. CheckTx only verifies (it writes nothing).
 */
export function runAnte(ctx: Ctx, tx: DecodedTx, env: AnteEnv, mode: AnteMode): Result<AnteOk, ChainError> {
  const shape = checkShape(tx, mode);
  if (!shape.ok) return shape;
  const { signer, gasWanted } = shape.value;
  const sigs = tx.raw.signatures;
  const fees = checkFee(ctx, tx, env, mode, signer, gasWanted);
  if (!fees.ok) return fees;
  const { fee, paid, accountNumber } = fees.value;
  const info = tx.authInfo.signerInfos[0]!;
  const stored = accountPubkey(ctx, signer, env.bech32Prefix);
  const key = resolvePubkey(info, env, signer, stored);
  if (!key.ok) return key;
  const pubkey = key.value;
  const sig = checkSignature(ctx, tx, env, mode, { signer, info, pubkey, accountNumber });
  if (sig !== undefined) return err(sig);

  // writes (delivery only): fee, public key, sequence
  if (!mode.check && mode.simulate !== true) {
    if (paid.length > 0) {
      const r = new BankKeeper(BANK_STORE, env.bech32Prefix).sendToModule(ctx, signer, FEE_COLLECTOR, paid);
      if (!r.ok) return r;
    }
    const addr = decodeAddress(signer, env.bech32Prefix)!;
    if (stored === undefined || !bytesEqual(stored, pubkey)) ctx.kv(AUTH_STORE).set(pubkeyKey(addr), pubkey);
    ctx.kv(AUTH_STORE).set(sequenceKey(addr), utf8((info.sequence + 1n).toString()));
  }
  return ok({
    signer,
    fee,
    gasWanted,
    gasUsed: anteGas(tx),
    events: [
      { type: "tx", attributes: [attr("fee", formatCoins(fee)), attr("fee_payer", signer)] },
      { type: "tx", attributes: [attr("acc_seq", `${signer}/${info.sequence}`)] },
      { type: "tx", attributes: [attr("signature", base64.encode(sigs[0]!))] },
    ],
  });
}

/** Steps 1 to 5: extension options, ValidateBasic and the signer count, timeout height, memo, tx size gas. */
function checkShape(tx: DecodedTx, mode: AnteMode): Result<{ signer: string; gasWanted: bigint }, ChainError> {
  if (tx.body.extensionOptions.length > 0) return err(wrap(TxErrors.ErrUnknownExtensionOptions));
  const basic = validateBasic(tx);
  if (basic !== undefined) return err(basic);
  const sigs = tx.raw.signatures;
  const signer = tx.msgs[0]!.signer;
  if (sigs.length !== 1)
    return err(wrap(TxErrors.ErrUnauthorized, `wrong number of signers; expected 1, got ${sigs.length}`));
  const infos = tx.authInfo.signerInfos;
  if (infos.length !== 1)
    return err(wrap(TxErrors.ErrUnauthorized, `wrong number of signers; expected 1, got ${infos.length}`));
  const timeout = tx.body.timeoutHeight;
  if (timeout > 0n && BigInt(mode.height) > timeout)
    return err(wrap(TxErrors.ErrTxTimeoutHeight, `block height: ${mode.height}, timeout height: ${timeout}`));
  // Go's len: the memo's length in bytes, whatever the characters.
  const memoLength = utf8(tx.body.memo).length;
  if (memoLength > MAX_MEMO_CHARACTERS)
    return err(
      wrap(
        TxErrors.ErrMemoTooLarge,
        `maximum number of characters is ${MAX_MEMO_CHARACTERS} but received ${memoLength} characters`,
      ),
    );
  const gasWanted = tx.authInfo.fee?.gasLimit ?? 0n;
  const sizeGas = BigInt(tx.bytes.length) * TX_SIZE_COST_PER_BYTE;
  if (sizeGas > gasWanted)
    return err(
      wrap(TxErrors.ErrOutOfGas, `out of gas in location: txSize; gasWanted: ${gasWanted}, gasUsed: ${sizeGas}`),
    );
  return ok({ signer, gasWanted });
}

/** Step 6: the fee (minimum gas prices in CheckTx), the fee payer's account and its funds. */
function checkFee(
  ctx: Ctx,
  tx: DecodedTx,
  env: AnteEnv,
  mode: AnteMode,
  signer: string,
  gasWanted: bigint,
): Result<{ fee: Coin[]; paid: Coin[]; accountNumber: bigint }, ChainError> {
  const fee: Coin[] = [];
  for (const c of tx.authInfo.fee?.amount ?? []) {
    if (!/^[0-9]{1,77}$/.test(c.amount)) return err(wrap(TxErrors.ErrInsufficientFee, "invalid fee provided"));
    fee.push({ denom: c.denom, amount: BigInt(c.amount) });
  }
  if (mode.check) {
    const required = requiredFees(env.minGasPrices, gasWanted);
    if (required.length > 0 && !required.some((r) => amountOf(fee, r.denom) >= r.amount))
      return err(
        wrap(
          TxErrors.ErrInsufficientFee,
          `insufficient fees; got: ${formatCoins(fee)} required: ${formatCoins(required)}`,
        ),
      );
  }
  const accountNumber = env.accountNumbers.get(signer);
  if (accountNumber === undefined)
    return err(wrap(TxErrors.ErrUnknownAddress, `fee payer address: ${signer} does not exist`));
  const paid = fee.filter((c) => c.amount > 0n);
  const bank = new BankKeeper(BANK_STORE, env.bech32Prefix);
  for (const c of paid) {
    const have = bank.balance(ctx, signer, c.denom);
    if (have < c.amount)
      return err(
        wrap(
          TxErrors.ErrInsufficientFunds,
          errorText(
            wrap(
              TxErrors.ErrInsufficientFunds,
              `spendable balance ${have}${c.denom} is smaller than ${c.amount}${c.denom}`,
            ),
          ),
        ),
      );
  }
  return ok({ fee, paid, accountNumber });
}

/** Step 7: the signer's public key: the one the tx carries (checked against the signer), else the stored one. */
function resolvePubkey(
  info: SignerInfo,
  env: AnteEnv,
  signer: string,
  stored: Uint8Array | undefined,
): Result<Uint8Array, ChainError> {
  let pubkey: Uint8Array | undefined = stored;
  if (info.publicKey !== undefined) {
    if (info.publicKey.typeUrl !== namesOf(env.namespace).fromChain(PUBKEY_TYPE))
      return err(wrap(TxErrors.ErrTxDecode, `unable to resolve type URL ${info.publicKey.typeUrl}`));
    let key: Uint8Array;
    try {
      key = fromBinary(PubKeySchema, info.publicKey.value).key;
    } catch (e) {
      return err(wrap(TxErrors.ErrTxDecode, e instanceof Error ? e.message : String(e)));
    }
    if (key.length !== 33 || pubkeyAddress(key, env.bech32Prefix) !== signer)
      return err(
        wrap(TxErrors.ErrInvalidPubKey, `pubKey does not match signer address ${signer} with signer index: 0`),
      );
    pubkey = key;
  }
  if (pubkey === undefined) return err(wrap(TxErrors.ErrInvalidPubKey, "pubkey on account is not set"));
  return ok(pubkey);
}

/** Step 8: SIGN_MODE_DIRECT, the account's sequence, then the signature over the SignDoc (not when simulating). */
function checkSignature(
  ctx: Ctx,
  tx: DecodedTx,
  env: AnteEnv,
  mode: AnteMode,
  s: {
    readonly signer: string;
    readonly info: SignerInfo;
    readonly pubkey: Uint8Array;
    readonly accountNumber: bigint;
  },
): ChainError | undefined {
  const { signer, info, pubkey, accountNumber } = s;
  const single = info.modeInfo?.sum.case === "single" ? info.modeInfo.sum.value.mode : undefined;
  if (single !== SignMode.DIRECT)
    return wrap(
      TxErrors.ErrInvalidRequest,
      `unsupported sign mode ${single === undefined ? "(multi or none)" : SignMode[single]}`,
    );
  const expected = accountSequence(ctx, signer, env.bech32Prefix) + mode.pending;
  if (info.sequence !== expected)
    return wrap(TxErrors.ErrWrongSequence, `account sequence mismatch, expected ${expected}, got ${info.sequence}`);
  const doc = signDocBytes(tx.raw.bodyBytes, tx.raw.authInfoBytes, env.chainId, accountNumber);
  if (mode.simulate !== true && !verifySignature(pubkey, doc, tx.raw.signatures[0]!))
    return wrap(
      TxErrors.ErrUnauthorized,
      `signature verification failed; please verify account number (${accountNumber}), sequence (${expected}) and chain-id (${env.chainId})`,
    );
  return undefined;
}
