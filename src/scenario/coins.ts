/**
 * Coins as written in scenario files: `<integer><denom>`, lists separated by commas (`1stake,2atom`).
 *
 * Contract: amounts are non-negative integers (bigint, at most 256 bits like the SDK's Int); denoms match the SDK's
 * `[a-zA-Z][a-zA-Z0-9/:._-]{2,127}`; spaces around list items are ignored (as `sdk.ParseCoinsNormalized` does) but
 * not inside an item; a denom may appear once per list. Zero amounts and the written order are kept as they are,
 * so that the keeper (not this parser) judges deposits such as `0stake`. The empty string is the empty list.
 */
import { err, ok, type Result } from "../core/errors.js";
import { quoteValue } from "./errors.js";

export interface Coin {
  readonly denom: string;
  readonly amount: bigint;
}

export type Coins = readonly Coin[];

export const DENOM_PATTERN = "[a-zA-Z][a-zA-Z0-9/:._-]{2,127}";
const COIN = new RegExp(`^(-?)([0-9]+)(${DENOM_PATTERN})$`);
const MAX_AMOUNT = (1n << 256n) - 1n;

/** One coin, `10000000stake`. */
export function parseCoin(text: string): Result<Coin, string> {
  const m = COIN.exec(text);
  if (m === null) {
    return err(
      `invalid coin ${quoteValue(text)}: expected <integer><denom> such as "10000000stake" (denom ${DENOM_PATTERN})`,
    );
  }
  const [, minus = "", digits = "", denom = ""] = m;
  if (minus !== "") return err(`invalid coin ${quoteValue(text)}: amount must not be negative`);
  const amount = BigInt(digits);
  if (amount > MAX_AMOUNT) return err(`invalid coin ${quoteValue(text)}: amount exceeds 256 bits`);
  return ok({ denom, amount });
}

/** A comma-separated list; `""` is the empty list. */
export function parseCoins(text: string): Result<Coins, string> {
  if (text.trim() === "") return ok([]);
  const coins: Coin[] = [];
  for (const item of text.split(",")) {
    const coin = parseCoin(item.trim());
    if (!coin.ok) return coin;
    if (coins.some((c) => c.denom === coin.value.denom)) {
      return err(`invalid coins ${quoteValue(text)}: denom ${quoteValue(coin.value.denom)} appears twice`);
    }
    coins.push(coin.value);
  }
  return ok(coins);
}

/**
 * Coins as the reference's `sdk.NewCoins` makes them (what `add-genesis-account` stores from `ParseCoinsNormalized`):
 * zero amounts dropped, denoms sorted. A genesis balance is always in this form.
 */
export const normalizedCoins = (coins: Coins): Coins =>
  coins.filter((c) => c.amount > 0n).sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0));

/** The file form: `1stake,2atom` (`""` for no coins). */
export const formatCoins = (coins: Coins): string => coins.map((c) => `${c.amount}${c.denom}`).join(",");
