import net from "node:net";
import { describe, expect, it } from "vitest";
import { loopbackConfig, standardBackend } from "../../test/kit/api.js";
import { parseAppToml } from "./config.js";
import { startApiServers } from "./server.js";

const config = (toml: string) => {
  const c = parseAppToml(toml);
  if (!c.ok) throw new Error(c.error.message);
  return c.value;
};

const refuses = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(false);
    });
    s.once("error", () => resolve(true));
  });

describe("startApiServers", () => {
  it("starts both listeners on free loopback ports and closes them", async () => {
    const r = await startApiServers(loopbackConfig(), standardBackend());
    if (!r.ok) throw new Error(r.error.message);
    const rest = Number(new URL(r.value.restUrl!).port);
    const grpc = Number(r.value.grpcAddress!.split(":")[1]);
    expect(r.value.restUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(r.value.grpcAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    const res = await fetch(`${r.value.restUrl}/chain/upgrade/v1beta1/authority`);
    expect(res.status).toBe(200);
    await r.value.close();
    expect(await refuses(rest)).toBe(true);
    expect(await refuses(grpc)).toBe(true);
  });

  it("starts nothing when both are disabled (the defaults enable only gRPC)", async () => {
    const r = await startApiServers(config("[grpc]\nenable = false"), standardBackend());
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.restUrl).toBeUndefined();
    expect(r.value.grpcAddress).toBeUndefined();
    await r.value.close();
  });

  it("refuses an api.address without a scheme", async () => {
    const r = await startApiServers(
      config('[api]\nenable = true\naddress = "localhost:1317"\n[grpc]\nenable = false'),
      standardBackend(),
    );
    expect(r).toEqual({
      ok: false,
      error: {
        kind: "plain",
        message:
          "invalid listening address localhost:1317 (use fully formed addresses, including the tcp:// or unix:// prefix)",
      },
    });
  });

  it("reports a port in use as a result", async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const rest = await startApiServers(
        config(`[api]\nenable = true\naddress = "tcp://127.0.0.1:${port}"\n[grpc]\nenable = false`),
        standardBackend(),
      );
      expect(rest.ok ? "" : rest.error.message).toMatch(
        new RegExp(`^listen tcp tcp://127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
      );
      const grpc = await startApiServers(
        config(`[api]\nenable = true\naddress = "tcp://127.0.0.1:0"\n[grpc]\naddress = "127.0.0.1:${port}"`),
        standardBackend(),
      );
      expect(grpc.ok ? "" : grpc.error.message).toMatch(/EADDRINUSE/);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });
});
