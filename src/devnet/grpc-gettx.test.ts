import { rmSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { afterAll, describe, expect, it } from "vitest";
import { loopbackConfig } from "../../test/kit/api.js";
import { openTestChain } from "../../test/kit/devnet.js";
import { NODE_JSON } from "../api/node-backend.js";
import { startApiServers } from "../server/server.js";

// @grpc/grpc-js against a devnet's gRPC server: an oversized GetTx hash is refused with a bounded InvalidArgument,
// and the same client (the same HTTP/2 session) keeps working afterwards.
const definition = protoLoader.loadSync(["chain/tx/v1beta1/service.proto"], {
  includeDirs: ["proto"],
  keepCase: true,
  longs: String,
  defaults: true,
  oneofs: true,
});
// biome-ignore lint/suspicious/noExplicitAny: grpc-js builds the package object at run time
const pkg = grpc.loadPackageDefinition(definition) as any;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("GetTx with an oversized hash", () => {
  it("answers InvalidArgument with a bounded message and the client's session lives", async () => {
    const { chain } = await openTestChain("gt", dirs);
    chain.produceBlock(1_800_000_000_000);
    await chain.flush();
    const r = await startApiServers(loopbackConfig(), chain.queryBackend(), { json: NODE_JSON });
    if (!r.ok) throw new Error(r.error.message);
    const client = new pkg.chain.tx.v1beta1.Service(r.value.grpcAddress, grpc.credentials.createInsecure());
    const getTx = (hash: string) =>
      new Promise<{ code: number; details: string }>((resolve) => {
        client.GetTx({ hash }, (e: grpc.ServiceError | null) =>
          resolve({ code: e?.code ?? 0, details: e?.details ?? "" }),
        );
      });
    try {
      const huge = await getTx("A".repeat(5_000_000));
      expect(huge).toEqual({
        code: grpc.status.INVALID_ARGUMENT,
        details: "invalid tx hash: expected at most 64 hex characters, got 5000000",
      });
      expect(await getTx("B".repeat(64))).toEqual({
        code: grpc.status.NOT_FOUND,
        details: `tx not found: ${"B".repeat(64)}`,
      });
      expect(client.getChannel().getConnectivityState(false)).toBe(grpc.connectivityState.READY);
    } finally {
      client.close();
      await r.value.close();
      await chain.close();
    }
  });
});
