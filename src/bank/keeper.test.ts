import { describe, expect, it } from "vitest";
import { StoreCtx } from "../app/context.js";
import { addressOfName } from "../core/address.js";
import { height, unixMs } from "../core/brand.js";
import { errorText } from "../core/errors.js";
import { MemMultiStore } from "../store/mem-multistore.js";
import { parseCoins } from "./coins.js";
import { BankKeeper } from "./keeper.js";

const coins = (s: string) => {
  const r = parseCoins(s);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const alice = addressOfName("alice");
const bob = addressOfName("bob");

function setup() {
  const ctx = new StoreCtx(new MemMultiStore(["gov", "bank"]), {
    chainId: "t",
    height: height(1),
    time: unixMs(0),
    appVersion: 0n,
  });
  const bank = new BankKeeper();
  expect(bank.mint(ctx, alice, coins("100stake,7atom")).ok).toBe(true);
  return { ctx, bank };
}

describe("bank keeper", () => {
  it("mints into balances and supply", () => {
    const { ctx, bank } = setup();
    expect(bank.balance(ctx, alice, "stake")).toBe(100n);
    expect(bank.allBalances(ctx, alice)).toEqual(coins("7atom,100stake"));
    expect(bank.supply(ctx, "stake")).toBe(100n);
  });

  it("sends between accounts and module accounts (module address = addressOfName(module))", () => {
    const { ctx, bank } = setup();
    expect(bank.send(ctx, alice, bob, coins("30stake")).ok).toBe(true);
    expect(bank.sendToModule(ctx, bob, "gov", coins("10stake")).ok).toBe(true);
    expect(bank.balance(ctx, addressOfName("gov"), "stake")).toBe(10n);
    expect(bank.sendFromModule(ctx, "gov", alice, coins("4stake")).ok).toBe(true);
    expect(bank.balance(ctx, alice, "stake")).toBe(74n);
    expect(bank.balance(ctx, bob, "stake")).toBe(20n);
    expect(bank.supply(ctx, "stake")).toBe(100n);
  });

  it("reports insufficient funds with the reference text and writes nothing", () => {
    const { ctx, bank } = setup();
    const r = bank.send(ctx, alice, bob, coins("5atom,101stake"));
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(errorText(r.error)).toBe("spendable balance 100stake is smaller than 101stake: insufficient funds");
    expect(bank.balance(ctx, alice, "atom")).toBe(7n); // the atom part was not moved
    const zero = bank.send(ctx, bob, alice, coins("1stake"));
    if (!zero.ok)
      expect(errorText(zero.error)).toBe("spendable balance 0stake is smaller than 1stake: insufficient funds");
    expect(zero.ok).toBe(false);
  });

  it("burns from a module account and shrinks the supply", () => {
    const { ctx, bank } = setup();
    expect(bank.sendToModule(ctx, alice, "gov", coins("40stake")).ok).toBe(true);
    expect(bank.burn(ctx, "gov", coins("15stake")).ok).toBe(true);
    expect(bank.balance(ctx, addressOfName("gov"), "stake")).toBe(25n);
    expect(bank.supply(ctx, "stake")).toBe(85n);
    expect(bank.burn(ctx, "gov", coins("26stake")).ok).toBe(false);
    // The total supply lists every denom, sorted; a denom burned to nothing leaves it.
    expect(bank.totalSupply(ctx)).toEqual(coins("7atom,85stake"));
    expect(bank.sendToModule(ctx, alice, "gov", coins("7atom")).ok).toBe(true);
    expect(bank.burn(ctx, "gov", coins("7atom")).ok).toBe(true);
    expect(bank.totalSupply(ctx)).toEqual(coins("85stake"));
  });

  it("rejects invalid coins and addresses", () => {
    const { ctx, bank } = setup();
    const r = bank.send(ctx, alice, bob, [{ denom: "stake", amount: 0n }]);
    if (!r.ok) expect(errorText(r.error)).toBe("0stake: invalid coins");
    expect(r.ok).toBe(false);
    expect(bank.send(ctx, alice, "nonsense", coins("1stake")).ok).toBe(false);
  });
});
