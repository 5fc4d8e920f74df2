import { addCoins, amountOf, type Coin, type Coins, formatCoins } from "../bank/coins.js";
import { BankKeeper } from "../bank/keeper.js";
import { decodeAddress } from "../core/address.js";
import { bytesEqual, concat, fromUtf8, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, type Result, wrap } from "../core/errors.js";
import { Dec } from "../gov/dec.js";
import { verifySignature } from "./keyring.js";
import { coinsOf, decodeBase64, msgSigner, msgSpend, type SignedTx, signDoc, TxErrors } from "./tx.js";

/**
 * The devnet's ante handler: what a signed transaction must pass before its message runs, in the reference's
 * order (chain id, signer, fee, account, public key, sequence, signature, fee deduction, sequence increment).
 *
 * State: account sequences live in the `auth` store (key `0x01 | address bytes` → decimal sequence), so they are
 * versioned, hashed and persisted with the rest of the state; a halted block commits none of its increments. The
 * public key of each account is registered at genesis (keyring.ts explains why the address does not derive from it).
 */
export const AUTH_STORE = "auth";
export const FEE_COLLECTOR = "fee_collector";

export interface DecCoin {
  readonly denom: string;
  readonly amount: Dec;
}

export interface AnteEnv {
  readonly chainId: string;
  /** Registered 33-byte public keys by bech32 account address. */
  readonly pubkeys: ReadonlyMap<string, Uint8Array>;
  /** app.toml `minimum-gas-prices`; all zero (or empty) means no fee is required. */
  readonly minGasPrices: readonly DecCoin[];
}

const bank = new BankKeeper();

const sequenceKey = (addr: Uint8Array): Uint8Array => concat(Uint8Array.of(0x01), addr);

/** The account's next expected sequence (0 for an account that never sent a transaction). */
export function accountSequence(ctx: Ctx, address: string): bigint {
  const addr = decodeAddress(address);
  if (addr === undefined) return 0n;
  const v = ctx.kv(AUTH_STORE).get(sequenceKey(addr));
  return v === undefined ? 0n : BigInt(fromUtf8(v));
}

function setSequence(ctx: Ctx, address: string, sequence: bigint): void {
  const addr = decodeAddress(address);
  if (addr !== undefined) ctx.kv(AUTH_STORE).set(sequenceKey(addr), utf8(sequence.toString()));
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

/**
 * Stateless and read-only checks (CheckTx, and the first half of delivery). `pending` is the number of this
 * account's transactions already accepted but not yet in a block (the mempool), so the expected sequence is the
 * stored one plus `pending`. `checkFunds` also requires the balance to cover the fee plus what the message spends.
 */
export function verifyTx(
  ctx: Ctx,
  tx: SignedTx,
  env: AnteEnv,
  opts: { readonly pending: bigint; readonly checkFunds: boolean },
): Result<void, ChainError> {
  if (tx.chain_id !== env.chainId)
    return err(wrap(TxErrors.ErrInvalidChainID, `invalid chain-id on tx; expected ${env.chainId}, got ${tx.chain_id}`));
  const msg = tx.msgs[0]!;
  const signer = msgSigner(msg);
  if (signer !== tx.account)
    return err(wrap(TxErrors.ErrInvalidPubKey, `pubKey does not match signer address ${signer} with signer index: 0`));
  const fee = coinsOf(tx.fee);
  const required = requiredFees(env.minGasPrices, BigInt(tx.gas));
  if (required.length > 0 && !required.some((r) => amountOf(fee, r.denom) >= r.amount))
    return err(
      wrap(
        TxErrors.ErrInsufficientFee,
        `insufficient fees; got: ${formatCoins(fee)} required: ${formatCoins(required)}`,
      ),
    );
  const registered = env.pubkeys.get(tx.account);
  if (registered === undefined) return err(wrap(TxErrors.ErrUnknownAddress, `account ${tx.account} does not exist`));
  const pubkey = decodeBase64(tx.pubkey);
  if (pubkey === undefined || !bytesEqual(pubkey, registered))
    return err(
      wrap(TxErrors.ErrInvalidPubKey, `pubKey does not match signer address ${tx.account} with signer index: 0`),
    );
  const expected = accountSequence(ctx, tx.account) + opts.pending;
  if (BigInt(tx.sequence) !== expected)
    return err(wrap(TxErrors.ErrWrongSequence, `account sequence mismatch, expected ${expected}, got ${tx.sequence}`));
  const signature = decodeBase64(tx.signature);
  if (signature === undefined || !verifySignature(pubkey, signDoc(tx), signature))
    return err(
      wrap(
        TxErrors.ErrUnauthorized,
        `signature verification failed; please verify account number (0), sequence (${tx.sequence}) and chain-id (${env.chainId})`,
      ),
    );
  const spend = opts.checkFunds ? addCoins(fee, msgSpend(msg)) : fee;
  for (const c of spend) {
    const have = bank.balance(ctx, tx.account, c.denom);
    if (have < c.amount)
      return err(
        wrap(
          TxErrors.ErrInsufficientFunds,
          `spendable balance ${have}${c.denom} is smaller than ${c.amount}${c.denom}`,
        ),
      );
  }
  return ok(undefined);
}

/**
 * Delivery: verifies against the block's state (no pending offset), then deducts the fee into the fee collector
 * and increments the sequence. On error nothing is written; on success the writes stand even if the message
 * itself later fails (the reference's ante writes survive a failed message).
 */
export function anteDeliver(ctx: Ctx, tx: SignedTx, env: AnteEnv): Result<void, ChainError> {
  const v = verifyTx(ctx, tx, env, { pending: 0n, checkFunds: false });
  if (!v.ok) return v;
  const fee = coinsOf(tx.fee).filter((c) => c.amount > 0n);
  if (fee.length > 0) {
    const paid = bank.sendToModule(ctx, tx.account, FEE_COLLECTOR, fee);
    if (!paid.ok) return paid;
  }
  setSequence(ctx, tx.account, BigInt(tx.sequence) + 1n);
  return ok(undefined);
}
