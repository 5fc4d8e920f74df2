import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UPGRADE_SCENARIO } from "../../test/kit/node-fixture.js";

// End to end through the real entry point: `chainsim serve` in a child process on free loopback ports.
const dir = mkdtempSync(join(tmpdir(), "chainsim-serve-"));
const LOOPBACK_TOML = `[api]\nenable = true\naddress = "tcp://127.0.0.1:0"\n[grpc]\naddress = "127.0.0.1:0"\n`;
const config = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

interface Exit {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function serve(args: string[]): { child: ChildProcess; lines: () => string; exited: Promise<Exit> } {
  const child = spawn(process.execPath, ["bin/chainsim.js", "serve", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<Exit>((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
  return { child, lines: () => stdout, exited };
}

async function waitFor(read: () => string, re: RegExp, timeoutMs = 30_000): Promise<RegExpMatchArray> {
  const start = Date.now();
  for (;;) {
    const m = read().match(re);
    if (m !== null) return m;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${re}: ${read()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("chainsim serve", () => {
  it("runs the scenario, prints its addresses, serves the node's state and exits 0 on SIGTERM", async () => {
    const s = serve([UPGRADE_SCENARIO, "--config", config("app.toml", LOOPBACK_TOML), "--node", "val2"]);
    const rest = (await waitFor(s.lines, /REST {2}(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
    expect(s.lines()).toMatch(/^serving node val2 of scenario query-upgrade-history: height 45/);
    expect(s.lines()).toMatch(/gRPC {2}127\.0\.0\.1:\d+/);
    const res = await fetch(`${rest}/chain/upgrade/v1beta1/applied_plan/v2`, {
      headers: { "x-chain-block-height": "40" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-chain-block-height")).toBe("40");
    expect(await res.text()).toBe('{"height":"30"}');
    s.child.kill("SIGTERM");
    const exit = await s.exited;
    expect(exit.code).toBe(0);
  });

  it("applies the configured pruning and --until-height, and stops on SIGINT", async () => {
    const s = serve([
      UPGRADE_SCENARIO,
      "--config",
      config("pruned.toml", `pruning = "everything"\n${LOOPBACK_TOML}`),
      "--until-height",
      "25",
    ]);
    const rest = (await waitFor(s.lines, /REST {2}(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
    expect(s.lines()).toMatch(/height 25, state retained 18-25/);
    const pruned = await fetch(`${rest}/chain/upgrade/v1beta1/current_plan`, {
      headers: { "x-chain-block-height": "17" },
    });
    expect(pruned.status).toBe(500);
    expect(((await pruned.json()) as { message: string }).message).toMatch(/^codespace sdk code 38: not found/);
    s.child.kill("SIGINT");
    expect((await s.exited).code).toBe(0);
  });

  it("--bech32-prefix cosmos serves the chain under the cosmos prefix: authority, proposer, balances", async () => {
    const s = serve([UPGRADE_SCENARIO, "--config", config("cosmos.toml", LOOPBACK_TOML), "--bech32-prefix", "cosmos"]);
    const rest = (await waitFor(s.lines, /REST {2}(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
    const get = async (path: string) => (await fetch(`${rest}${path}`)).json() as Promise<Record<string, unknown>>;
    // x/gov's module account on every Cosmos SDK chain whose prefix is `cosmos`.
    expect(await get("/chain/upgrade/v1beta1/authority")).toEqual({
      address: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn",
    });
    const proposal = (await get("/chain/gov/v1/proposals/1")).proposal as { proposer: string; messages: unknown[] };
    expect(proposal.proposer).toMatch(/^cosmos1[02-9ac-hj-np-z]{38}$/);
    expect(proposal.messages[0]).toMatchObject({ authority: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn" });
    const balances = await get(`/chain/bank/v1beta1/balances/${proposal.proposer}`);
    expect((balances.balances as { denom: string }[]).map((b) => b.denom)).toContain("stake");
    // A chain1 address is not an address of this chain: the reference's codec error.
    const wrong = await fetch(`${rest}/chain/bank/v1beta1/balances/chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax`);
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { message: string }).message).toContain(
      "hrp does not match bech32 prefix: expected 'cosmos' got 'chain'",
    );
    s.child.kill("SIGTERM");
    expect((await s.exited).code).toBe(0);
  });

  it("takes the namespace and the prefix from app.toml's [chainsim] table: the reference's names end to end", async () => {
    const toml = `${LOOPBACK_TOML}[chainsim]\nnamespace = "cosmos"\nbech32-prefix = "cosmos"\n`;
    const s = serve([UPGRADE_SCENARIO, "--config", config("cosmos-app.toml", toml)]);
    const rest = (await waitFor(s.lines, /REST {2}(http:\/\/127\.0\.0\.1:\d+)/))[1]!;
    const res = await fetch(`${rest}/cosmos/upgrade/v1beta1/authority`);
    expect(res.headers.get("x-cosmos-block-height")).toMatch(/^[0-9]+$/);
    expect(await res.json()).toEqual({ address: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn" });
    expect((await fetch(`${rest}/chain/upgrade/v1beta1/authority`)).status).toBe(501);
    s.child.kill("SIGTERM");
    expect((await s.exited).code).toBe(0);
  });

  it("rejects bad input with a one-line error and exit 2 before listening", async () => {
    const cases: [string[], RegExp][] = [
      [[UPGRADE_SCENARIO, "--node", "nobody"], /^Error: unknown node "nobody" \(nodes: val1, val2\)\n$/],
      [
        [UPGRADE_SCENARIO, "--config", config("bad.toml", '[api]\nmax-open-connections = "x"\n')],
        /^Error: app\.toml: api\.max-open-connections: expected a non-negative integer, got "x"\n$/,
      ],
      [[UPGRADE_SCENARIO, "--until-height", "0"], /^Error: --until-height: expected a height/],
      [
        [config("bad.yaml", "name: x\nbinaries: {}\n")],
        /^Error: .*bad\.yaml: binaries: at least one binary is required\n$/,
      ],
      [["missing.yaml"], /^Error: missing\.yaml: no such file or directory\n$/],
      [
        [UPGRADE_SCENARIO, "--bech32-prefix", "Cosmos"],
        /^Error: --bech32-prefix: a bech32 prefix must be lowercase, got "Cosmos"\n$/,
      ],
      [
        [UPGRADE_SCENARIO, "--config", config("prefix.toml", '[chainsim]\nbech32-prefix = ""\n')],
        /^Error: app\.toml: chainsim\.bech32-prefix: a bech32 prefix must not be empty\n$/,
      ],
    ];
    for (const [args, re] of cases) {
      const exit = await serve(args).exited;
      expect({ args, code: exit.code, stdout: exit.stdout }).toEqual({ args, code: 2, stdout: "" });
      expect(exit.stderr).toMatch(re);
    }
  });
});
