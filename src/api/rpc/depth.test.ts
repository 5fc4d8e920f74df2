import { describe, expect, it } from "vitest";
import { simulatedNode } from "../../../test/kit/node-fixture.js";
import { listenRpc } from "../../server/rpc.js";
import { RpcHandler } from "./handler.js";
import { exceedsJsonDepth } from "./json-depth.js";
import { simRpcSource } from "./sim-source.js";

// Go's encoding/json stops at 10000 levels of nesting ("exceeded max depth"); CometBFT answers -32700.
describe("JSON-RPC nesting depth", () => {
  it("counts arrays and objects outside strings", () => {
    expect(exceedsJsonDepth(`${"[".repeat(10_000)}${"]".repeat(10_000)}`)).toBe(false);
    expect(exceedsJsonDepth(`${"[".repeat(10_001)}${"]".repeat(10_001)}`)).toBe(true);
    expect(exceedsJsonDepth(`"${"[".repeat(20_000)}"`)).toBe(false);
    expect(exceedsJsonDepth(`["\\"${"{".repeat(20_000)}"]`)).toBe(false);
  });

  it("answers a request nested deeper than the limit with a JSON-RPC parse error over HTTP", async () => {
    const { scenario, sim, backend } = simulatedNode();
    const source = simRpcSource(sim, "val1", backend, scenario.chain.validators, "");
    const r = await listenRpc(new RpcHandler(source), "127.0.0.1", 0, {
      maxOpenConnections: 0,
      maxBodyBytes: 1_000_000,
      readTimeoutMs: 5000,
      writeTimeoutMs: 5000,
    });
    if (!r.ok) throw r.error;
    try {
      const deep = (n: number) =>
        `{"jsonrpc":"2.0","id":1,"method":"block","params":{"height":${"[".repeat(n)}${"]".repeat(n)}}}`;
      for (const body of [deep(10_001), deep(300_000), "[".repeat(400_000) + "]".repeat(400_000)]) {
        const res = await fetch(`http://127.0.0.1:${r.value.port}/`, { method: "POST", body });
        expect(res.status).toBe(500);
        expect(((await res.json()) as { error: unknown }).error).toEqual({
          code: -32700,
          message: "Parse error",
          data: "error unmarshaling request: exceeded max depth",
        });
      }
      // Below the limit the request is decoded: the height does not convert.
      const res = await fetch(`http://127.0.0.1:${r.value.port}/`, { method: "POST", body: deep(10) });
      expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32602);
    } finally {
      await r.value.close();
    }
  });
});
