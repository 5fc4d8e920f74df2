import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { simulatedNode } from "../../../test/kit/node-fixture.js";
import { eagerCollectionPaginate } from "../../../test/kit/paginate-reference.js";
import { addressOfName } from "../../core/address.js";
import { utf8 } from "../../core/bytes.js";
import {
  QueryAllBalancesRequestSchema,
  QueryAllBalancesResponseSchema,
  QueryBalanceRequestSchema,
} from "../../gen/chain/bank/v1beta1/query_pb.js";
import { PageRequestSchema } from "../../gen/chain/base/query/v1beta1/pagination_pb.js";
import { inProcessQuery } from "../in-process.js";
import { abciQuery } from "../rpc/abci-query.js";
import { page } from "./bank.js";

// The reference: x/bank/keeper/grpc_query.go (Cosmos SDK v0.50), served by `chainsim serve` (this backend) and the
// devnet (src/devnet/rest.test.ts) through the same service.
const node = simulatedNode({ untilHeight: 45 });
const val1 = addressOfName("val1");
const B = "/chain/bank/v1beta1";

function get(path: string) {
  const r = inProcessQuery(node.backend, { path });
  if (!r.ok) throw new Error(r.error);
  return { status: r.value.status, body: JSON.parse(r.value.body) as unknown };
}

describe("chain.bank.v1beta1.Query", () => {
  it("serves balances, spendable balances, the supply and the params in the reference's shapes", () => {
    const all = get(`${B}/balances/${val1}`).body as { balances: { denom: string; amount: string }[] };
    expect(all).toMatchObject({ pagination: { next_key: null, total: String(all.balances.length) } });
    expect(all.balances.map((c) => c.denom)).toContain("stake");
    const stake = all.balances.find((c) => c.denom === "stake")!;
    expect(get(`${B}/balances/${val1}/by_denom?denom=stake`).body).toEqual({ balance: stake });
    expect(get(`${B}/balances/${val1}/by_denom?denom=atom`).body).toEqual({
      balance: { denom: "atom", amount: "0" },
    });
    expect(get(`${B}/spendable_balances/${val1}`).body).toEqual(all);
    const supply = get(`${B}/supply`).body as { supply: { denom: string; amount: string }[] };
    expect(supply.supply.find((c) => c.denom === "stake")).toBeDefined();
    expect(get(`${B}/supply/by_denom?denom=stake`).body).toEqual({
      amount: supply.supply.find((c) => c.denom === "stake"),
    });
    expect(get(`${B}/params`).body).toEqual({ params: { send_enabled: [], default_send_enabled: true } });
    expect(get(`${B}/balances/${val1}?pagination.limit=1&pagination.count_total=true`).body).toMatchObject({
      balances: [all.balances[0]],
    });
  });

  it("answers bad arguments as the reference: InvalidArgument, denom checked before the address", () => {
    expect(get(`${B}/balances/${val1}/by_denom?denom=x`)).toEqual({
      status: 400,
      body: { code: 3, message: "invalid denom: x", details: [] },
    });
    expect(get(`${B}/balances/nobody/by_denom?denom=x`).body).toMatchObject({ message: "invalid denom: x" });
    expect(get(`${B}/balances/cosmos1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a/by_denom?denom=stake`)).toEqual({
      status: 400,
      body: {
        code: 3,
        message:
          "invalid address: hrp does not match bech32 prefix: expected 'chain' got 'cosmos': internal logic error",
        details: [],
      },
    });
    expect(get(`${B}/spendable_balances/${val1}?pagination.offset=1&pagination.key=AA==`)).toEqual({
      status: 400,
      body: { code: 3, message: "paginate: invalid request, either offset or key is expected, got both", details: [] },
    });
    expect(get(`${B}/supply/by_denom?denom=`).body).toMatchObject({ code: 3, message: "invalid denom: " });
    expect(get(`${B}/supply?pagination.offset=1&pagination.key=AA==`).body).toMatchObject({ code: 13 });
  });

  it("answers abci_query on the gRPC method path with the protobuf response", () => {
    const req = toBinary(QueryAllBalancesRequestSchema, create(QueryAllBalancesRequestSchema, { address: val1 }));
    const r = abciQuery(node.backend, "/chain.bank.v1beta1.Query/AllBalances", req, 0n);
    expect(r.code).toBe(0);
    const res = fromBinary(QueryAllBalancesResponseSchema, r.value!);
    expect(res.balances.map((c) => c.denom)).toContain("stake");
    const bad = toBinary(QueryBalanceRequestSchema, create(QueryBalanceRequestSchema, { address: val1, denom: "" }));
    const failed = abciQuery(node.backend, "/chain.bank.v1beta1.Query/Balance", bad, 0n);
    // gRPCErrorToSDKError: InvalidArgument becomes the SDK's invalid request (18).
    expect([failed.code, failed.log]).toEqual([
      18,
      "rpc error: code = InvalidArgument desc = invalid denom: : invalid request",
    ]);
  });

  it("checks an address on every request: a bad one fails however often it or a good one was asked before", () => {
    const bad = `${val1.slice(0, -1)}${val1.endsWith("q") ? "p" : "q"}`;
    for (let i = 0; i < 3; i++) {
      expect(get(`${B}/balances/${val1}`).status).toBe(200);
      expect(get(`${B}/balances/${bad}`)).toMatchObject({ status: 400, body: { code: 3 } });
    }
  });

  it("pages coins as the eager paginate model does, the default page of up to 100 coins included", () => {
    const denom = fc.stringMatching(/^[a-z][a-z0-9]{2,6}$/);
    // Few coins, or about the default limit of 100 (either side of it).
    const denoms = fc.oneof(
      fc.uniqueArray(denom, { maxLength: 5 }),
      fc.uniqueArray(denom, { minLength: 98, maxLength: 103 }),
    );
    const request = fc.option(
      fc.record({
        limit: fc.constantFrom(0n, 1n, 3n, 100n),
        offset: fc.constantFrom(0n, 2n),
        countTotal: fc.boolean(),
        reverse: fc.boolean(),
      }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(denoms, request, (ds, r) => {
        const coins = [...ds].sort().map((denom, i) => ({ denom, amount: BigInt(i + 1) }));
        const req = r === undefined ? undefined : create(PageRequestSchema, r);
        const want = eagerCollectionPaginate(
          coins.map((c) => ({ key: utf8(c.denom), value: c })),
          req,
        );
        const got = page(coins, req, Code.InvalidArgument, "");
        expect(got.ok && want.ok).toBe(true);
        if (!got.ok || !want.ok) return;
        expect(got.value.coins.map((c) => c.denom)).toEqual(want.value.results.map((c) => c.denom));
        expect(got.value.pagination).toEqual({ nextKey: want.value.page.nextKey, total: want.value.page.total });
      }),
      { numRuns: 150 },
    );
  });
});
