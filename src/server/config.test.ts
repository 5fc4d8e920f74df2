import { describe, expect, it } from "vitest";
import { PRUNE_DEFAULT, PRUNE_EVERYTHING, PRUNE_NOTHING } from "../store/pruning.js";
import { defaultAppToml } from "./app-toml.js";
import {
  DEFAULT_API,
  DEFAULT_GRPC,
  parseApiAddress,
  parseAppToml,
  parseGrpcAddress,
  validateAppConfig,
} from "./config.js";

const parse = (t: string) => {
  const r = parseAppToml(t);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const parseError = (t: string) => {
  const r = parseAppToml(t);
  return r.ok ? undefined : r.error.message;
};

describe("app.toml defaults", () => {
  it("takes the reference defaults for absent keys", () => {
    const c = parse("");
    expect(c.api).toEqual(DEFAULT_API);
    expect(c.grpc).toEqual(DEFAULT_GRPC);
    expect(c.api).toEqual({
      enable: false,
      swagger: false,
      address: "tcp://localhost:1317",
      maxOpenConnections: 1000,
      rpcReadTimeoutSeconds: 10,
      rpcWriteTimeoutSeconds: 0,
      rpcMaxBodyBytes: 1000000,
      enabledUnsafeCors: false,
    });
    expect(c.grpc).toEqual({
      enable: true,
      address: "localhost:9090",
      maxRecvMsgSizeBytes: 10485760,
      maxSendMsgSizeBytes: 2147483647,
    });
    expect(c.pruning).toEqual(PRUNE_DEFAULT);
    expect(c.minimumGasPrices).toBe("");
    expect(c.snapshotInterval).toBe(0);
  });

  it("round-trips the written template", () => {
    const c = parse(defaultAppToml());
    expect(c.api).toEqual(DEFAULT_API);
    expect(c.grpc).toEqual(DEFAULT_GRPC);
    expect(c.minimumGasPrices).toBe("0stake");
    expect(c.pruning).toEqual(PRUNE_DEFAULT);
    const custom = parse(defaultAppToml({ api: { enable: true, swagger: true }, grpc: { address: "127.0.0.1:0" } }));
    expect(custom.api.enable && custom.api.swagger).toBe(true);
    expect(custom.grpc.address).toBe("127.0.0.1:0");
  });
});

describe("app.toml values", () => {
  it("accepts integers quoted or unquoted and ignores unknown keys", () => {
    const c = parse(`
unknown-key = 1
[api]
max-open-connections = "5"
rpc-read-timeout = 3
rpc-max-body-bytes = "0x10"
whatever = "x"
[grpc]
max-recv-msg-size = 1024
max-send-msg-size = "2048"
[other]
x = 1
`);
    expect(c.api.maxOpenConnections).toBe(5);
    expect(c.api.rpcReadTimeoutSeconds).toBe(3);
    expect(c.api.rpcMaxBodyBytes).toBe(16);
    expect(c.grpc.maxRecvMsgSizeBytes).toBe(1024);
    expect(c.grpc.maxSendMsgSizeBytes).toBe(2048);
  });

  it.each([
    [
      '[api]\nmax-open-connections = "x"',
      'app.toml: api.max-open-connections: expected a non-negative integer, got "x"',
    ],
    ["[api]\nmax-open-connections = -1", "app.toml: api.max-open-connections: expected a non-negative integer, got -1"],
    ["[api]\nrpc-read-timeout = 1.5", "app.toml: api.rpc-read-timeout: expected a non-negative integer, got 1.5"],
    ['[api]\nenable = "maybe"', 'app.toml: api.enable: expected a boolean, got "maybe"'],
    ["[grpc]\naddress = [1]", "app.toml: grpc.address: expected a string, got [1]"],
    ["api = 5", "app.toml: api: expected a table, got 5"],
    [
      '[grpc]\nmax-recv-msg-size = "10MB"',
      'app.toml: grpc.max-recv-msg-size: expected a non-negative integer, got "10MB"',
    ],
  ])("rejects %j", (toml, message) => {
    expect(parseError(toml)).toBe(message);
  });

  it("reports TOML syntax errors", () => {
    expect(parseError("a = [")).toMatch(/^app\.toml: Invalid TOML document/);
  });
});

describe("[chainsim] keys", () => {
  it("reads the wire namespace (default chain) and the bech32 prefix (default unset: the chain's own)", () => {
    expect([parse("").namespace, parse("").bech32Prefix]).toEqual(["chain", undefined]);
    const c = parse('[chainsim]\nnamespace = "cosmos"\nbech32-prefix = "cosmos"\n');
    expect([c.namespace, c.bech32Prefix]).toEqual(["cosmos", "cosmos"]);
    // The template writes the namespace and shows the prefix commented out.
    const t = parse(defaultAppToml({ namespace: "cosmos" }));
    expect([t.namespace, t.bech32Prefix]).toEqual(["cosmos", undefined]);
    expect(defaultAppToml()).toContain('# bech32-prefix = "cosmos"');
  });

  it.each([
    ['[chainsim]\nnamespace = "x"', 'app.toml: chainsim.namespace: expected one of "chain", "cosmos", got "x"'],
    [
      '[chainsim]\nbech32-prefix = "Cosmos"',
      'app.toml: chainsim.bech32-prefix: a bech32 prefix must be lowercase, got "Cosmos"',
    ],
    ["[chainsim]\nbech32-prefix = 1", "app.toml: chainsim.bech32-prefix: expected a string, got 1"],
    ['[chainsim]\nbech32-prefix = ""', "app.toml: chainsim.bech32-prefix: a bech32 prefix must not be empty"],
  ])("rejects %j in one line", (toml, message) => {
    expect(parseError(toml)).toBe(message);
  });
});

describe("pruning keys", () => {
  it("resolves strategies case-insensitively", () => {
    expect(parse('pruning = "Everything"').pruning).toEqual(PRUNE_EVERYTHING);
    expect(parse('pruning = "nothing"').pruning).toEqual(PRUNE_NOTHING);
    expect(parseError('pruning = "sometimes"')).toBe("unknown pruning strategy sometimes");
    expect(parseError('pruning = ""')).toBe("unknown pruning strategy ");
  });
  it("reads custom values leniently and validates them in order", () => {
    const c = parse('pruning = "custom"\npruning-keep-recent = "100"\npruning-interval = 10');
    expect(c.pruning).toEqual({ strategy: "custom", keepRecent: 100, interval: 10 });
    expect(parseError('pruning = "custom"\npruning-keep-recent = "x"\npruning-interval = "abc"')).toBe(
      `invalid custom pruning options: 'pruning-interval' must not be 0. If you want to disable pruning, select pruning = "nothing"`,
    );
    expect(parseError('pruning = "custom"\npruning-keep-recent = "-5"\npruning-interval = "10"')).toBe(
      `invalid custom pruning options: 'pruning-keep-recent' must not be less than 2. For the most aggressive pruning, select pruning = "everything"`,
    );
  });
  it("ignores custom values for presets", () => {
    expect(parse('pruning = "default"\npruning-keep-recent = "x"').pruning).toEqual(PRUNE_DEFAULT);
  });
});

describe("startup validation", () => {
  it("requires minimum gas prices only for a node that takes transactions", () => {
    const c = parse("");
    expect(validateAppConfig(c, { takesTransactions: true })).toEqual({
      ok: false,
      error: { kind: "plain", message: "set min gas price in app.toml or flag or env variable: error in app.toml" },
    });
    expect(validateAppConfig(c, { takesTransactions: false }).ok).toBe(true);
  });
  it("refuses snapshots with everything pruning (verbatim comparison), after the gas check", () => {
    const bad = parse('minimum-gas-prices = "0stake"\npruning = "everything"\n[state-sync]\nsnapshot-interval = 100');
    expect(validateAppConfig(bad, { takesTransactions: true })).toEqual({
      ok: false,
      error: {
        kind: "plain",
        message: "cannot enable state sync snapshots with 'everything' pruning setting: error in app.toml",
      },
    });
    const noGas = parse('pruning = "everything"\n[state-sync]\nsnapshot-interval = 100');
    expect(validateAppConfig(noGas, { takesTransactions: true }).ok ? "" : "gas").toBe("gas");
    const capital = parse('pruning = "Everything"\n[state-sync]\nsnapshot-interval = 100');
    expect(validateAppConfig(capital, { takesTransactions: false }).ok).toBe(true);
  });
});

describe("listen addresses", () => {
  it("requires a scheme on api.address", () => {
    expect(parseApiAddress("localhost:1317")).toEqual({
      ok: false,
      error: {
        kind: "plain",
        message:
          "invalid listening address localhost:1317 (use fully formed addresses, including the tcp:// or unix:// prefix)",
      },
    });
    expect(parseApiAddress("tcp://localhost:1317")).toEqual({ ok: true, value: { host: "localhost", port: 1317 } });
    expect(parseApiAddress("tcp://[::1]:0")).toEqual({ ok: true, value: { host: "::1", port: 0 } });
    expect(parseApiAddress("unix:///tmp/s").ok).toBe(false);
  });
  it("reads grpc.address as host:port", () => {
    expect(parseGrpcAddress("localhost:9090")).toEqual({ ok: true, value: { host: "localhost", port: 9090 } });
    expect(parseGrpcAddress(":9090")).toEqual({ ok: true, value: { host: "", port: 9090 } });
    expect(parseGrpcAddress("localhost").ok).toBe(false);
    expect(parseGrpcAddress("localhost:http").ok).toBe(false);
  });
});
