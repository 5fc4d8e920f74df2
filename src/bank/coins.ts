import { create } from "@bufbuild/protobuf";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";
import { CoinSchema, type Coin as ProtoCoinMessage } from "../gen/chain/base/v1beta1/coin_pb.js";

/**
 * Coins as the reference's `sdk.Coins`: a list of (denom, integer amount). A *normalized* list is sorted by denom
 * (byte order), has no duplicates and no zero amounts; the arithmetic helpers always return normalized lists.
 * Lists that come from user messages keep their given order so that validation and error texts can report them
 * exactly as the reference does.
 */
export interface Coin {
  readonly denom: string;
  readonly amount: bigint;
}
export type Coins = readonly Coin[];

/** The reference's denom rule `[a-zA-Z][a-zA-Z0-9/:._-]{2,127}`. */
const DENOM_RE = /^[a-zA-Z][a-zA-Z0-9/:._-]{2,127}$/;
const COIN_RE = /^([0-9]+)\s*([a-zA-Z][a-zA-Z0-9/:._-]{2,127})$/;

export const isValidDenom = (denom: string): boolean => DENOM_RE.test(denom);

const byDenom = (a: Coin, b: Coin): number => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0);

/** `10stake` (Go `Coin.String()`). */
export const coinString = (c: Coin): string => `${c.amount}${c.denom}`;

/** `1atom,2stake` (Go `Coins.String()`); the empty list prints as the empty string. */
export const formatCoins = (coins: Coins): string => coins.map(coinString).join(",");

/**
 * Parses `10000000stake` or `1stake,2atom` (integer amounts only; spaces around items allowed). Zero amounts are
 * dropped, the result is sorted by denom; a repeated denom is an error. The empty string is the empty list.
 */
export function parseCoins(input: string): Result<Coins, PlainError> {
  const text = input.trim();
  if (text === "") return ok([]);
  const out: Coin[] = [];
  for (const part of text.split(",")) {
    const item = part.trim();
    const m = COIN_RE.exec(item);
    if (m === null) {
      return err(plain(`invalid coin expression: ${JSON.stringify(item)} (expected <integer amount><denom>)`));
    }
    out.push({ denom: m[2]!, amount: BigInt(m[1]!) });
  }
  out.sort(byDenom);
  for (let i = 1; i < out.length; i++) {
    if (out[i]!.denom === out[i - 1]!.denom) return err(plain(`duplicate denomination ${out[i]!.denom}`));
  }
  return ok(out.filter((c) => c.amount !== 0n));
}

/**
 * Go `Coins.Validate()`: denoms valid, strictly ascending (no duplicates), every amount positive. The empty list
 * is valid. Returns the reference's error text.
 */
export function validateCoins(coins: Coins): Result<void, string> {
  let low: string | undefined;
  for (const c of coins) {
    if (!isValidDenom(c.denom)) return err(`invalid denom: ${c.denom}`);
    if (low !== undefined) {
      if (c.denom === low) return err(`duplicate denomination ${c.denom}`);
      if (c.denom < low) return err(`denomination ${c.denom} is not sorted`);
      if (c.amount <= 0n) return err(`coin ${c.denom} amount is not positive`);
    } else if (c.amount <= 0n) {
      return err(`coin ${coinString(c)} amount is not positive`);
    }
    low = c.denom;
  }
  return ok(undefined);
}

/** Go `Coins.IsValid()`. */
export const isValidCoins = (coins: Coins): boolean => validateCoins(coins).ok;

/** Sorted, zero-free copy; amounts of repeated denoms are summed (Go `NewCoins` without the panic). */
export function normalizeCoins(coins: Coins): Coins {
  const sums = new Map<string, bigint>();
  for (const c of coins) sums.set(c.denom, (sums.get(c.denom) ?? 0n) + c.amount);
  return [...sums]
    .filter(([, a]) => a !== 0n)
    .map(([denom, amount]) => ({ denom, amount }))
    .sort(byDenom);
}

export const amountOf = (coins: Coins, denom: string): bigint => {
  let total = 0n;
  for (const c of coins) if (c.denom === denom) total += c.amount;
  return total;
};

/** Normalized sum. */
export const addCoins = (a: Coins, b: Coins): Coins => normalizeCoins([...a, ...b]);

/** Normalized difference `a − b`, or undefined when any denom would go negative (Go `SafeSub` hasNeg). */
export function subCoins(a: Coins, b: Coins): Coins | undefined {
  const diff = normalizeCoins([...a, ...b.map((c) => ({ denom: c.denom, amount: -c.amount }))]);
  return diff.some((c) => c.amount < 0n) ? undefined : diff;
}

/**
 * Go `Coins.IsAllGTE(b)`: true when `b` is empty; false when `a` is empty and `b` is not; otherwise every coin
 * of `b` is covered by `a`.
 */
export function isAllGTE(a: Coins, b: Coins): boolean {
  if (b.length === 0) return true;
  if (a.length === 0) return false;
  return b.every((c) => amountOf(a, c.denom) >= c.amount);
}

export const isZeroCoins = (coins: Coins): boolean => coins.every((c) => c.amount === 0n);

/** Protobuf `Coin` shape (`amount` is a decimal integer string). */
export interface ProtoCoin {
  readonly denom: string;
  readonly amount: string;
}

/**
 * Reads protobuf coins, keeping their order. An amount that is not a decimal integer is an error (in the reference
 * such a message does not even decode).
 */
export function coinsFromProto(coins: readonly ProtoCoin[]): Result<Coins, string> {
  const out: Coin[] = [];
  for (const c of coins) {
    if (!/^[+-]?[0-9]+$/.test(c.amount)) return err(`invalid coin amount ${JSON.stringify(c.amount)}`);
    out.push({ denom: c.denom, amount: BigInt(c.amount) });
  }
  return ok(out);
}

export const coinsToProto = (coins: Coins): ProtoCoinMessage[] =>
  coins.map((c) => create(CoinSchema, { denom: c.denom, amount: c.amount.toString() }));
