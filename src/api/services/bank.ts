import { create } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import { type Coin, type Coins, isValidDenom } from "../../bank/coins.js";
import { BANK_STORE, BankKeeper } from "../../bank/keeper.js";
import { utf8 } from "../../core/bytes.js";
import { err, ok, type Result } from "../../core/errors.js";
import {
  Query,
  QueryAllBalancesResponseSchema,
  QueryBalanceResponseSchema,
  QueryParamsResponseSchema,
  QuerySpendableBalancesResponseSchema,
  QuerySupplyOfResponseSchema,
  QueryTotalSupplyResponseSchema,
} from "../../gen/chain/bank/v1beta1/query_pb.js";
import type { PageRequest } from "../../gen/chain/base/query/v1beta1/pagination_pb.js";
import { addressProblem } from "../../gov/address-check.js";
import { collectionPaginate } from "../../store/collection-paginate.js";
import { type BoundService, bindService, type HandlerError, statusError } from "../backend.js";

/**
 * `chain.bank.v1beta1.Query` over the simulated bank (the reference's `x/bank/keeper/grpc_query.go`, v0.50), in its
 * order of checks and with its plain gRPC statuses:
 *
 * - Balance: `invalid denom: <d>` (InvalidArgument) first, then `invalid address: <codec error>` (InvalidArgument);
 *   an account without the denom answers `{denom, amount: "0"}`.
 * - AllBalances, SpendableBalances: `invalid address: ...` (InvalidArgument); paginated by denom, a bad page request
 *   `paginate: <err>` (InvalidArgument). Every coin is spendable (no vesting or locked coins here).
 * - TotalSupply: paginated by denom, a bad page request Internal. SupplyOf: `invalid denom: <d>`, or the supply (0
 *   for an unknown denom). Params: the defaults (`default_send_enabled: true`, no per-denom entries).
 */
const invalid = (message: string): HandlerError => statusError(Code.InvalidArgument, message);
const coinsOut = (cs: Coins) => cs.map((c) => ({ denom: c.denom, amount: c.amount.toString() }));

/** One page of coins by denom: `collectionPaginate` over the coins keyed by denom, its error as `code`. */
export function page(coins: Coins, request: PageRequest | undefined, code: Code, prefix: string) {
  // A denom's key is encoded only where the page reads it (a request key, the next key): the default page of at most
  // DEFAULT_PAGE_LIMIT coins encodes none.
  const r = collectionPaginate(coins, denomKey, request);
  if (!r.ok) return err(statusError(code, `${prefix}${r.error}`));
  return ok({
    coins: coinsOut(r.value.results),
    pagination: { nextKey: r.value.page.nextKey, total: r.value.page.total },
  });
}

/** A coin's key in a balance or supply collection: its denom's bytes. */
const denomKey = (c: Coin): Uint8Array => utf8(c.denom);

/**
 * The address check of a chain whose accounts carry the bech32 `prefix` (the bech32 decode behind it is memoised,
 * bounded, in gov/address-check.ts: an address's validity never depends on the chain's state).
 */
function addressChecker(prefix: string): (address: string) => Result<void, HandlerError> {
  return (address) => {
    const problem = addressProblem(address, prefix);
    return problem === undefined ? ok(undefined) : err(invalid(`invalid address: ${problem}`));
  };
}

/** The bank query service of a chain whose accounts carry the bech32 `prefix`. */
export function bankQueryService(prefix: string): BoundService {
  const bank = new BankKeeper(BANK_STORE, prefix);
  const checkAddress = addressChecker(prefix);
  return bindService(Query, {
    balance(ctx, req) {
      if (!isValidDenom(req.denom)) return err(invalid(`invalid denom: ${req.denom}`));
      const a = checkAddress(req.address);
      if (!a.ok) return a;
      const amount = bank.balance(ctx, req.address, req.denom);
      return ok(create(QueryBalanceResponseSchema, { balance: { denom: req.denom, amount: amount.toString() } }));
    },
    allBalances(ctx, req) {
      const a = checkAddress(req.address);
      if (!a.ok) return a;
      const p = page(bank.allBalances(ctx, req.address), req.pagination, Code.InvalidArgument, "paginate: ");
      return p.ok
        ? ok(create(QueryAllBalancesResponseSchema, { balances: p.value.coins, pagination: p.value.pagination }))
        : p;
    },
    spendableBalances(ctx, req) {
      const a = checkAddress(req.address);
      if (!a.ok) return a;
      const p = page(bank.allBalances(ctx, req.address), req.pagination, Code.InvalidArgument, "paginate: ");
      return p.ok
        ? ok(create(QuerySpendableBalancesResponseSchema, { balances: p.value.coins, pagination: p.value.pagination }))
        : p;
    },
    totalSupply(ctx, req) {
      const p = page(bank.totalSupply(ctx), req.pagination, Code.Internal, "");
      return p.ok
        ? ok(create(QueryTotalSupplyResponseSchema, { supply: p.value.coins, pagination: p.value.pagination }))
        : p;
    },
    supplyOf(ctx, req) {
      if (!isValidDenom(req.denom)) return err(invalid(`invalid denom: ${req.denom}`));
      const amount = bank.supply(ctx, req.denom).toString();
      return ok(create(QuerySupplyOfResponseSchema, { amount: { denom: req.denom, amount } }));
    },
    params: () => ok(create(QueryParamsResponseSchema, { params: { defaultSendEnabled: true, sendEnabled: [] } })),
  });
}
