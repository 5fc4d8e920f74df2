import { pubkeyJson, upperHex } from "../shapes.js";
import type { RpcSource } from "../source.js";
import { type MethodTable, pageOf, storedHeight } from "./table.js";

/**
 * The validator set method of CometBFT v0.38's RPC (rpc/core/consensus.go `Validators`): the set at a stored height,
 * paged (`page`, `per_page`: 30 by default, at most 100), each with its address (upper-case hex), public key, voting
 * power and a proposer priority of 0 (ResultValidators).
 */
export function validatorMethods(s: RpcSource): MethodTable {
  return [
    [
      "validators",
      {
        args: ["height", "page", "per_page"],
        run: (a) => {
          const h = storedHeight(s, a.int("height"));
          const all = s.validators().map((v) => ({
            address: upperHex(v.address),
            pub_key: pubkeyJson(v.pubkey),
            voting_power: v.power.toString(),
            proposer_priority: "0",
          }));
          const { start, size } = pageOf(a.int("page"), a.int("per_page"), all.length);
          const page = all.slice(start, start + size);
          return { block_height: String(h), validators: page, count: String(page.length), total: String(all.length) };
        },
      },
    ],
  ];
}
