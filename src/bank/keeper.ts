import { addressOfName, DEFAULT_BECH32_PREFIX, decodeAddress } from "../core/address.js";
import { concat, fromUtf8, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, type Result, SdkErrors, wrap } from "../core/errors.js";
import type { KVStore } from "../core/kv.js";
import { prefixIterator } from "../store/prefix.js";
import { addCoins, type Coin, type Coins, coinString, formatCoins, isValidCoins } from "./coins.js";

/**
 * A minimal bank over the `bank` store: balances per (address, denom) and the total supply per denom, both as
 * decimal integer strings. Addresses carry the chain's bech32 `prefix` (others are invalid); module accounts are the
 * addresses of their module names (`addressOfName("gov", prefix)`).
 *
 * Store layout (reference prefixes): `0x00 | denom` → supply, `0x02 | len(addr) | addr | denom` → balance.
 * Invariant: the supply of a denom equals the sum of its balances. Every mutating method checks everything
 * before it writes anything, so a failed call leaves the store untouched. No bank events are emitted.
 */
export const BANK_STORE = "bank";

const SUPPLY_PREFIX = Uint8Array.of(0x00);
const BALANCES_PREFIX = Uint8Array.of(0x02);

const accountPrefix = (addr: Uint8Array): Uint8Array => concat(BALANCES_PREFIX, Uint8Array.of(addr.length), addr);
const balanceKey = (addr: Uint8Array, denom: string): Uint8Array => concat(accountPrefix(addr), utf8(denom));
const supplyKey = (denom: string): Uint8Array => concat(SUPPLY_PREFIX, utf8(denom));

const readAmount = (store: KVStore, key: Uint8Array): bigint => {
  const v = store.get(key);
  return v === undefined ? 0n : BigInt(fromUtf8(v));
};
const writeAmount = (store: KVStore, key: Uint8Array, amount: bigint): void => {
  if (amount === 0n) store.delete(key);
  else store.set(key, utf8(amount.toString()));
};

export class BankKeeper {
  readonly storeName: string;
  /** The chain's bech32 account prefix. */
  readonly bech32Prefix: string;

  constructor(storeName: string = BANK_STORE, bech32Prefix: string = DEFAULT_BECH32_PREFIX) {
    this.storeName = storeName;
    this.bech32Prefix = bech32Prefix;
  }

  /** A module account's address (`authtypes.NewModuleAddress(name)` with the chain's prefix). */
  moduleAddress(module: string): string {
    return addressOfName(module, this.bech32Prefix);
  }

  #store(ctx: Ctx): KVStore {
    return ctx.kv(this.storeName);
  }

  /** Balance of one denom; 0 for unknown or invalid addresses. */
  balance(ctx: Ctx, address: string, denom: string): bigint {
    const addr = decodeAddress(address, this.bech32Prefix);
    return addr === undefined ? 0n : readAmount(this.#store(ctx), balanceKey(addr, denom));
  }

  /** All non-zero balances of an address, sorted by denom. */
  allBalances(ctx: Ctx, address: string): Coins {
    const addr = decodeAddress(address, this.bech32Prefix);
    if (addr === undefined) return [];
    const prefix = accountPrefix(addr);
    const out: Coin[] = [];
    for (const [k, v] of prefixIterator(this.#store(ctx), prefix)) {
      out.push({ denom: fromUtf8(k.slice(prefix.length)), amount: BigInt(fromUtf8(v)) });
    }
    return out;
  }

  supply(ctx: Ctx, denom: string): bigint {
    return readAmount(this.#store(ctx), supplyKey(denom));
  }

  /** The non-zero supply of every denom, sorted by denom (the reference's total supply query). */
  totalSupply(ctx: Ctx): Coins {
    const out: Coin[] = [];
    for (const [k, v] of prefixIterator(this.#store(ctx), SUPPLY_PREFIX)) {
      const amount = BigInt(fromUtf8(v));
      if (amount !== 0n) out.push({ denom: fromUtf8(k.slice(SUPPLY_PREFIX.length)), amount });
    }
    return out;
  }

  /** Creates coins at an address (genesis accounts and test funding); the supply grows by the same amount. */
  mint(ctx: Ctx, address: string, coins: Coins): Result<void, ChainError> {
    const to = this.#address(address);
    if (!to.ok) return to;
    if (!isValidCoins(coins)) return err(wrap(SdkErrors.ErrInvalidCoins, formatCoins(coins)));
    const store = this.#store(ctx);
    for (const c of coins) {
      writeAmount(store, supplyKey(c.denom), readAmount(store, supplyKey(c.denom)) + c.amount);
    }
    this.#add(store, to.value, coins);
    return ok(undefined);
  }

  /** Moves coins between accounts. Insufficient funds: `spendable balance <have> is smaller than <want>`. */
  send(ctx: Ctx, from: string, to: string, coins: Coins): Result<void, ChainError> {
    const src = this.#address(from);
    if (!src.ok) return src;
    const dst = this.#address(to);
    if (!dst.ok) return dst;
    const store = this.#store(ctx);
    const checked = this.#checkSpend(store, src.value, coins);
    if (!checked.ok) return checked;
    this.#sub(store, src.value, coins);
    this.#add(store, dst.value, coins);
    return ok(undefined);
  }

  sendToModule(ctx: Ctx, from: string, module: string, coins: Coins): Result<void, ChainError> {
    return this.send(ctx, from, this.moduleAddress(module), coins);
  }

  sendFromModule(ctx: Ctx, module: string, to: string, coins: Coins): Result<void, ChainError> {
    return this.send(ctx, this.moduleAddress(module), to, coins);
  }

  /** Destroys coins held by a module account; the supply shrinks by the same amount. */
  burn(ctx: Ctx, module: string, coins: Coins): Result<void, ChainError> {
    const addr = decodeAddress(this.moduleAddress(module), this.bech32Prefix)!;
    const store = this.#store(ctx);
    const checked = this.#checkSpend(store, addr, coins);
    if (!checked.ok) return checked;
    this.#sub(store, addr, coins);
    for (const c of coins) {
      writeAmount(store, supplyKey(c.denom), readAmount(store, supplyKey(c.denom)) - c.amount);
    }
    return ok(undefined);
  }

  #address(address: string): Result<Uint8Array, ChainError> {
    const a = decodeAddress(address, this.bech32Prefix);
    return a === undefined ? err(wrap(SdkErrors.ErrInvalidAddress, `invalid address ${address}`)) : ok(a);
  }

  /** The reference's subUnlockedCoins checks, in coin order, without writing. */
  #checkSpend(store: KVStore, addr: Uint8Array, coins: Coins): Result<void, ChainError> {
    if (!isValidCoins(coins)) return err(wrap(SdkErrors.ErrInvalidCoins, formatCoins(coins)));
    for (const c of coins) {
      const have = readAmount(store, balanceKey(addr, c.denom));
      if (have < c.amount) {
        return err(
          wrap(
            SdkErrors.ErrInsufficientFunds,
            `spendable balance ${coinString({ denom: c.denom, amount: have })} is smaller than ${coinString(c)}`,
          ),
        );
      }
    }
    return ok(undefined);
  }

  #sub(store: KVStore, addr: Uint8Array, coins: Coins): void {
    for (const c of coins) {
      const key = balanceKey(addr, c.denom);
      writeAmount(store, key, readAmount(store, key) - c.amount);
    }
  }

  #add(store: KVStore, addr: Uint8Array, coins: Coins): void {
    for (const c of addCoins([], coins)) {
      const key = balanceKey(addr, c.denom);
      writeAmount(store, key, readAmount(store, key) + c.amount);
    }
  }
}
