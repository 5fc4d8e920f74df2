import { assert } from "../../../core/assert.js";
import type { RpcSource } from "../source.js";
import { abciMethods } from "./abci.js";
import { blockMethods } from "./blocks.js";
import { networkMethods } from "./network.js";
import type { Method } from "./table.js";
import { txMethods } from "./txs.js";
import { validatorMethods } from "./validators.js";

/**
 * Every RPC method a source serves, by area in the order of rpc/core/routes.go's sections: network (health, status,
 * net_info, genesis), blocks, validators, abci, txs (the broadcasts only when the source can broadcast). A name is
 * served once: two areas never define the same method.
 */
export function rpcMethods(s: RpcSource): ReadonlyMap<string, Method> {
  const all = new Map<string, Method>();
  for (const area of [networkMethods, blockMethods, validatorMethods, abciMethods, txMethods]) {
    for (const [name, method] of area(s)) {
      assert(!all.has(name), `RPC method ${name} is defined by two areas`);
      all.set(name, method);
    }
  }
  return all;
}
