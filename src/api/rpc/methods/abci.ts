import { base64, hex } from "@scure/base";
import { abciQuery, abciQueryJson } from "../abci-query.js";
import type { RpcSource } from "../source.js";
import type { MethodTable } from "./table.js";

/**
 * The application methods of CometBFT v0.38's RPC (rpc/core/abci.go): abci_info (the app's name, version, protocol
 * version and last committed height and app hash: ResponseInfo) and abci_query (a gRPC query path or a store path,
 * answered by abci-query.ts as baseapp answers it; `prove` is read and ignored: no proofs).
 */
export function abciMethods(s: RpcSource): MethodTable {
  return [
    [
      "abci_info",
      {
        args: [],
        run: () => {
          const n = s.blocks.nodeInfo();
          const latest = s.blocks.latestHeight();
          const appHash = latest > 0 ? s.appHashAfter(latest) : undefined;
          return {
            response: {
              data: n.appName,
              version: n.appVersion,
              app_version: n.protocolApp.toString(),
              last_block_height: String(latest),
              last_block_app_hash: appHash === undefined ? null : base64.encode(hex.decode(appHash.toLowerCase())),
            },
          };
        },
      },
    ],
    [
      "abci_query",
      {
        args: ["path", "data", "height", "prove"],
        run: (a) => {
          const path = a.string("path");
          const data = a.bytes("data", "hex");
          const height = a.int("height") ?? 0n;
          a.bool("prove");
          return { response: abciQueryJson(abciQuery(s.backend, path, data, height)) };
        },
      },
    ],
  ];
}
