import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loopbackConfig } from "../../test/kit/api.js";
import { simulatedNode } from "../../test/kit/node-fixture.js";
import { NODE_JSON } from "../api/node-backend.js";
import { type ApiServers, startApiServers } from "../server/server.js";
import { callErrorText, goErrorText, jsonToYaml, queryMain } from "./query.js";

const node = simulatedNode({ untilHeight: 45 });
let servers: ApiServers;
let rest: string;
let grpc: string;
beforeAll(async () => {
  const r = await startApiServers(loopbackConfig(), node.backend, { json: NODE_JSON });
  if (!r.ok) throw new Error(r.error.message);
  servers = r.value;
  rest = r.value.restUrl!;
  grpc = r.value.grpcAddress!;
});
afterAll(async () => {
  await servers.close();
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await queryMain(args, { out: (s) => out.push(s), err: (s) => err.push(s) });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

const PLAN_JSON =
  '{"name":"v2","time":"0001-01-01T00:00:00Z","height":"30","info":"{\\"binaries\\":{\\"any\\":\\"file:///bin/v2\\"}}","upgraded_client_state":null}';

/** Both transports must print the same thing (flags read once the servers run). */
const TRANSPORTS = ["REST", "gRPC"] as const;
const transportFlags = (name: (typeof TRANSPORTS)[number]): string[] =>
  name === "REST" ? ["--node", rest] : ["--grpc-addr", grpc];

describe("chainsim query upgrade (docs/node-api.md §6.2)", () => {
  for (const name of TRANSPORTS) {
    describe(`over ${name}`, () => {
      let flags: string[] = [];
      beforeAll(() => {
        flags = transportFlags(name);
      });
      it("plan: the Plan itself as JSON or YAML; no plan is an error", async () => {
        expect(await cli("upgrade", "plan", ...flags, "--height", "20", "--output", "json")).toEqual({
          code: 0,
          out: PLAN_JSON,
          err: "",
        });
        expect((await cli("upgrade", "plan", ...flags, "--height=20")).out).toBe(
          [
            'height: "30"',
            `info: '{"binaries":{"any":"file:///bin/v2"}}'`,
            "name: v2",
            'time: "0001-01-01T00:00:00Z"',
            "upgraded_client_state: null",
          ].join("\n"),
        );
        expect(await cli("upgrade", "plan", ...flags)).toEqual({
          code: 1,
          out: "",
          err: "Error: no upgrade scheduled",
        });
      });

      it("applied: the block meta of the done height, 2-space JSON whatever --output says", async () => {
        const r = await cli("upgrade", "applied", "v2", ...flags, "-o", "text");
        expect(r.code).toBe(0);
        const served = node.backend.services[2]!; // block service over the same node
        expect(served.service.typeName).toBe("chain.base.tendermint.v1beta1.Service");
        // The printed meta is the block store's meta of block 30 with hex hash fields.
        const meta = node.sim.blocks.meta(30)!;
        const printed = JSON.parse(r.out) as typeof meta;
        expect(printed).toEqual({
          ...meta,
          header: {
            ...meta.header,
            validators_hash: printed.header.validators_hash,
            next_validators_hash: printed.header.next_validators_hash,
          },
        });
        expect(printed.header.validators_hash).toMatch(/^[0-9A-F]{64}$/);
        expect(r.out).toBe(JSON.stringify(printed, null, 2));
        expect(await cli("upgrade", "applied", "v3", ...flags)).toEqual({
          code: 1,
          out: "",
          err: "Error: no upgrade found",
        });
        // At a height before the upgrade it was not applied yet.
        expect((await cli("upgrade", "applied", "v2", ...flags, "--height", "29")).err).toBe("Error: no upgrade found");
      });

      it("module_versions (alias module-versions): all, one, unknown, at a height", async () => {
        expect((await cli("upgrade", "module_versions", ...flags, "-o", "json")).out).toBe(
          '{"module_versions":[{"name":"bank","version":"1"},{"name":"foo","version":"2"},{"name":"gov","version":"1"},{"name":"upgrade","version":"1"}]}',
        );
        expect((await cli("upgrade", "module-versions", "foo", ...flags, "--height", "29")).out).toBe(
          'module_versions:\n- name: foo\n  version: "1"',
        );
        expect(await cli("upgrade", "module_versions", "bar", ...flags)).toEqual({
          code: 1,
          out: "",
          err: "Error: rpc error: code = Unknown desc = x/upgrade: QueryModuleVersions module bar not found: module version not found",
        });
      });

      it("height errors come back as the Go error text", async () => {
        expect((await cli("upgrade", "plan", ...flags, "--height", "99")).err).toBe(
          "Error: rpc error: code = Unknown desc = cannot query with height in the future; please provide a valid height: invalid height",
        );
        expect((await cli("upgrade", "plan", ...flags, "--height", "-1")).err).toBe(
          "Error: rpc error: code = Unknown desc = cannot query with height < 0; please provide a valid height: invalid request",
        );
      });
    });
  }

  it("authority prints the gov address", async () => {
    expect((await cli("upgrade", "authority", "--node", rest, "-o", "json")).out).toBe(
      '{"address":"chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax"}',
    );
  });

  it("flag and arity errors use cobra's texts and exit 1, checked before any call", async () => {
    const cases: [string[], string][] = [
      [["upgrade", "plan", "extra"], "accepts 0 arg(s), received 1"],
      [["upgrade", "applied"], "accepts 1 arg(s), received 0"],
      [["upgrade", "module_versions", "a", "b"], "accepts at most 1 arg(s), received 2"],
      [["upgrade", "plan", "--expedited"], "unknown flag: --expedited"],
      [["upgrade", "plan", "-x"], "unknown shorthand flag: 'x' in -x"],
      [["upgrade", "plan", "--height"], "flag needs an argument: --height"],
      [
        ["upgrade", "plan", "--height", "abc"],
        'invalid argument "abc" for "--height" flag: strconv.ParseInt: parsing "abc": invalid syntax',
      ],
      [["upgrade", "nope"], 'unknown command "nope" for "chainsim query upgrade"'],
      [["bank"], 'unknown command "bank" for "chainsim query"'],
    ];
    for (const [args, msg] of cases) {
      expect(await cli("--node", "http://127.0.0.1:1", ...args)).toEqual({ code: 1, out: "", err: `Error: ${msg}` });
    }
  });

  it("an unreachable node is a one-line error", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer();
      s.listen(0, "127.0.0.1", () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const r = await cli("upgrade", "plan", "--node", `http://127.0.0.1:${port}`);
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `Error: Get "http://127.0.0.1:${port}/chain/upgrade/v1beta1/current_plan": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    const g = await cli("upgrade", "plan", "--grpc-addr", `127.0.0.1:${port}`);
    expect(g.code).toBe(1);
    expect(g.err).toMatch(/^Error: rpc error: code = Unavailable desc = /);
  });
});

describe("error text conversion", () => {
  it("turns an SDK gRPC message back into Go's err.Error() (wrap first)", () => {
    expect(goErrorText("codespace sdk code 26: invalid height: cannot query with height in the future")).toBe(
      "cannot query with height in the future: invalid height",
    );
    expect(goErrorText("codespace sdk code 38: not found")).toBe("not found");
    expect(goErrorText("codespace zzz code 9: whatever: x")).toBe("codespace zzz code 9: whatever: x");
    expect(goErrorText("plain text")).toBe("plain text");
    expect(callErrorText({ kind: "status", code: 5, message: "codespace sdk code 38: not found: x" })).toBe(
      "rpc error: code = NotFound desc = codespace sdk code 38: not found: x",
    );
  });

  it("prints text output as sorted YAML 1.1 with quoted numeric strings", () => {
    expect(jsonToYaml('{"b":"120","a":null,"c":[{"v":"1","u":"t"}],"d":"yes"}')).toBe(
      'a: null\nb: "120"\nc:\n- u: t\n  v: "1"\nd: "yes"',
    );
  });
});
