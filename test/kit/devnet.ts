import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { build } from "esbuild";
import { govAuthority } from "../../src/core/address.js";
import { DevnetChain } from "../../src/devnet/chain.js";
import { type HomeConfig, readHome } from "../../src/devnet/home.js";
import { initNode } from "../../src/devnet/init.js";
import { runNode } from "../../src/devnet/node.js";
import { packAny } from "../../src/devnet/tx.js";
import { VoteOption } from "../../src/gen/chain/gov/v1/gov_pb.js";
import { MsgSubmitProposalSchema, MsgVoteSchema } from "../../src/gen/chain/gov/v1/tx_pb.js";
import { MsgCancelUpgradeSchema, MsgSoftwareUpgradeSchema } from "../../src/gen/chain/upgrade/v1beta1/tx_pb.js";
import { HostFs } from "../../src/node/host-fs.js";

/**
 * Helpers for the devnet's process-level tests. Node processes start from an esbuild bundle of the CLI (a few hundred
 * milliseconds instead of seconds through tsx; esbuild comes with tsx). Bundles go under node_modules/.cache so that
 * the externals (classic-level's native binding) resolve from the repository's node_modules, in a folder named after
 * the checkout (worktrees that share one node_modules must not overwrite each other's bundles). Listeners are loopback.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const SRC = join(ROOT, "src");
const CHECKOUT = createHash("sha256").update(ROOT).digest("hex").slice(0, 12);
const CACHE = join(ROOT, "node_modules", ".cache", `chainsim-devnet-test-${CHECKOUT}`);

/**
 * Bundles an entry that runs the CLI: `main` is the whole `chainsim` program (src/cli/main.ts); `devnet` runs only the
 * devnet commands (init, start, visor, tx) through the same command objects, for fast restarts. Returns the path.
 */
export async function bundleCli(kind: "main" | "devnet"): Promise<string> {
  mkdirSync(CACHE, { recursive: true });
  const entry = join(CACHE, `${kind}-entry.ts`);
  const cli = join(SRC, "cli");
  const source =
    kind === "main"
      ? `import { main } from ${JSON.stringify(join(cli, "main.ts"))};\nprocess.exitCode = await main(process.argv.slice(2));\n`
      : [
          `import { runCommand } from ${JSON.stringify(join(cli, "devnet-common.ts"))};`,
          `import { initCommand } from ${JSON.stringify(join(cli, "devnet-init.ts"))};`,
          `import { startCommand } from ${JSON.stringify(join(cli, "devnet-start.ts"))};`,
          `import { visorCommand } from ${JSON.stringify(join(cli, "devnet-visor.ts"))};`,
          `import { TX_COMMANDS } from ${JSON.stringify(join(cli, "devnet-tx.ts"))};`,
          "const io = { out: (s) => process.stdout.write(s + '\\n'), err: (s) => process.stderr.write(s + '\\n') };",
          "const [cmd, ...rest] = process.argv.slice(2);",
          "const leaf = { init: initCommand, start: startCommand, visor: visorCommand }[cmd];",
          "let code;",
          "if (leaf !== undefined) code = await runCommand(leaf, rest, io);",
          "else {",
          "  const c = TX_COMMANDS.find((c) => c.path.every((s, i) => s === rest[i]));",
          "  code = c === undefined ? 1 : await runCommand(c, rest.slice(c.path.length), io);",
          "}",
          "process.exitCode = code;",
        ].join("\n");
  writeFileSync(entry, source);
  const outfile = join(CACHE, `${kind}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["classic-level"],
    outfile,
    logLevel: "error",
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
  });
  return outfile;
}

/** The lowest port of the kernel's ephemeral range (what `listen(0)` and outgoing connections take ports from). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > FREE_PORT_FLOOR + 1_000 ? low : LINUX_EPHEMERAL_LOW;
  } catch {
    return LINUX_EPHEMERAL_LOW;
  }
}
const LINUX_EPHEMERAL_LOW = 32_768;
const FREE_PORT_FLOOR = 20_000;
const FREE_PORT_TRIES = 50;
/** The ports freePort gave in this process. */
const handedOut = new Set<number>();

/** Whether `port` can be bound on loopback now (bound and released). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

/**
 * A free loopback TCP port for a process the test starts later: drawn below the kernel's ephemeral range and checked
 * by binding it. A port from `listen(0)` is in that range, where between its release and the node's bind another
 * test's `listen(0)` or an outgoing connection's source port could take it (EADDRINUSE, seen in a suite run); below
 * it only another test's freePort could, at random among some 12,000 ports.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (let i = 0; i < FREE_PORT_TRIES; i++) {
    const port = FREE_PORT_FLOOR + Math.floor(Math.random() * (low - FREE_PORT_FLOOR));
    // Never the same port twice in one process (a test takes several before its node binds any).
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no bindable port in ${FREE_PORT_FLOOR}..${low - 1} after ${FREE_PORT_TRIES} tries`);
}

export interface TestHome {
  readonly home: string;
  readonly restUrl: string;
  /** The CometBFT RPC (http://127.0.0.1:<port>). */
  readonly rpcUrl: string;
}

/** Initializes a home with loopback listeners on free ports and reproducible keys; `pruning` edits app.toml. */
export async function initTestHome(
  home: string,
  o: { votingPeriod?: string; depositPeriod?: string; pruning?: { keepRecent: number; interval: number } } = {},
): Promise<TestHome> {
  const api = await freePort();
  const grpc = await freePort();
  const rpc = await freePort();
  const r = await initNode({
    home,
    chainId: "devnet-test",
    validators: 1,
    keySeed: "devnet-test",
    apiAddress: `tcp://127.0.0.1:${api}`,
    grpcAddress: `127.0.0.1:${grpc}`,
    rpcAddress: `tcp://127.0.0.1:${rpc}`,
    ...(o.votingPeriod === undefined ? {} : { votingPeriod: o.votingPeriod }),
    ...(o.depositPeriod === undefined ? {} : { depositPeriod: o.depositPeriod }),
  });
  if (!r.ok) throw new Error(r.error);
  if (o.pruning !== undefined) {
    const path = join(home, "config", "app.toml");
    const text = readFileSync(path, "utf8")
      .replace('pruning = "default"', 'pruning = "custom"')
      .replace('pruning-keep-recent = "0"', `pruning-keep-recent = "${o.pruning.keepRecent}"`)
      .replace('pruning-interval = "0"', `pruning-interval = "${o.pruning.interval}"`);
    writeFileSync(path, text);
  }
  return { home, restUrl: `http://127.0.0.1:${api}`, rpcUrl: `http://127.0.0.1:${rpc}` };
}

/** Spawns the bundled CLI; output is collected (and shown on failure by the caller). */
/**
 * The visor's environment for end-to-end runs that read the node's own halt message.
 *
 * The node writes data/upgrade-info.json and only then logs `UPGRADE "<name>" NEEDED at height: ...` (the
 * reference's PreBlocker order). With DAEMON_SHUTDOWN_GRACE unset the visor SIGKILLs the node as soon as a poll
 * sees the file (the reference cosmovisor's default), so a poll landing between the two loses the message: a real
 * race, seen once in CI on a loaded machine. A grace period makes the visor SIGINT instead; the halted node has
 * written its message by the time it handles the signal.
 */
export const VISOR_ENV_GRACEFUL: Readonly<Record<string, string>> = {
  DAEMON_POLL_INTERVAL: "100ms",
  DAEMON_SHUTDOWN_GRACE: "10s",
};

export function spawnCli(
  bundle: string,
  args: readonly string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [bundle, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  return { child, output: () => out };
}

/** Runs the bundled CLI to completion. */
export async function runCli(
  bundle: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number; output: string }> {
  const { child, output } = spawnCli(bundle, args, env);
  const code = await new Promise<number>((resolve) => child.once("exit", (c) => resolve(c ?? 1)));
  return { code, output: output() };
}

export const exited = (child: ChildProcess): Promise<number> =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once("exit", (c, s) => resolve(c ?? (s === null ? 1 : 128))));

/** Polls `f` until it returns a value, or fails after `timeoutMs`. */
export async function waitFor<T>(f: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A JSON document as tests read it. */
// biome-ignore lint/suspicious/noExplicitAny: test helpers read arbitrary JSON documents
type Json = any;

/** GET a JSON document; undefined when the node is not reachable. */
export async function getJson(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json } | undefined> {
  try {
    const r = await fetch(url, { headers, signal: AbortSignal.timeout(2000) });
    return { status: r.status, body: JSON.parse(await r.text()) };
  } catch {
    return undefined;
  }
}

/** A MsgVote from `voter` (yes unless told), Any-packed. */
export const voteMsg = (voter: string, proposalId = 1n, option = VoteOption.YES): Any =>
  packAny(MsgVoteSchema, create(MsgVoteSchema, { proposalId, voter, option }));

/** A MsgSubmitProposal carrying MsgSoftwareUpgrade (or MsgCancelUpgrade without a plan), Any-packed. */
export function upgradeProposalMsg(
  proposer: string,
  plan:
    | {
        readonly name: string;
        readonly height: bigint;
        readonly time?: { seconds: bigint; nanos: number };
        readonly upgradedClientState?: Any;
      }
    | undefined,
  deposit = "10000000",
): Any {
  const inner =
    plan === undefined
      ? packAny(MsgCancelUpgradeSchema, create(MsgCancelUpgradeSchema, { authority: govAuthority() }))
      : packAny(MsgSoftwareUpgradeSchema, create(MsgSoftwareUpgradeSchema, { authority: govAuthority(), plan }));
  return packAny(
    MsgSubmitProposalSchema,
    create(MsgSubmitProposalSchema, {
      messages: [inner],
      initialDeposit: [{ denom: "stake", amount: deposit }],
      proposer,
      title: "upgrade",
      summary: "s",
    }),
  );
}

/** A fresh devnet home (chain id `chainId`, one validator, reproducible keys) opened in-process on binary v1. */
export async function openTestChain(
  chainId: string,
  dirs: string[],
): Promise<{ home: string; cfg: HomeConfig; chain: DevnetChain }> {
  const home = mkdtempSync(join(tmpdir(), `devnet-${chainId}-`));
  dirs.push(home);
  const init = await initNode({ home, chainId, validators: 1, keySeed: chainId });
  if (!init.ok) throw new Error(init.error);
  const cfg = readHome(home);
  if (!cfg.ok) throw new Error(cfg.error.join("\n"));
  const o = await DevnetChain.open({ config: cfg.value, binary: "v1", skipHeights: [], fs: new HostFs(), sync: false });
  if (!o.ok || o.value.kind !== "running") throw new Error(`the test chain did not open: ${o.ok ? "halted" : o.error}`);
  return { home, cfg: cfg.value, chain: o.value.chain };
}

/** The endpoints `chainsim serve --json` prints on its first line. */
export interface ServedEndpoints {
  readonly rest: string;
  readonly rpc: string;
}

/**
 * `chainsim serve SCENARIO` (bin/chainsim.js) with REST and CometBFT RPC on free loopback ports (`tcp://127.0.0.1:0`,
 * an app.toml written into `dir`, gRPC off) and `--json`, plus `extra` flags; the child is pushed on `children` at
 * once (so the caller's afterAll kills it), and the endpoints of its first output line are awaited. A timeout
 * names the scenario and shows the output so far.
 */
export async function serveScenario(
  scenario: string,
  o: {
    readonly dir: string;
    readonly children: ChildProcess[];
    readonly extra?: readonly string[];
    readonly timeoutMs?: number;
  },
): Promise<ServedEndpoints & { readonly child: ChildProcess }> {
  const toml = join(o.dir, "app.toml");
  writeFileSync(toml, `[api]\nenable = true\naddress = "tcp://127.0.0.1:0"\n[grpc]\nenable = false\n`);
  const args = ["serve", scenario, "--config", toml, "--rpc-address", "tcp://127.0.0.1:0", "--json"];
  const { child, output } = spawnCli("bin/chainsim.js", [...args, ...(o.extra ?? [])]);
  o.children.push(child);
  let stdout = "";
  child.stdout?.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  // stdout only: stderr may carry notes (e.g. running from the sources) before the endpoints line.
  const firstLine = async (): Promise<ServedEndpoints | undefined> =>
    stdout.includes("\n") ? (JSON.parse(stdout.split("\n")[0] as string) as ServedEndpoints) : undefined;
  try {
    const ends = await waitFor(firstLine, o.timeoutMs ?? 60_000, `chainsim serve ${scenario}'s endpoints`);
    return { rest: ends.rest, rpc: ends.rpc, child };
  } catch (e) {
    throw new Error(`${(e as Error).message}; its output: ${output()}`);
  }
}

/**
 * Starts the devnet node of `home` in this process (binary v1, 20 ms blocks) and stops it after its first committed
 * block: the exit code and the lines it wrote on stderr (a refused start writes its one line there).
 */
export async function startUntilFirstBlock(
  home: string,
  bech32Prefix?: string,
): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const abort = new AbortController();
  const code = await runNode({
    home,
    binary: "v1",
    skipHeights: [],
    blockTimeMs: 20,
    out: (l) => {
      if (l.startsWith("INF committed block")) abort.abort();
    },
    err: (l) => err.push(l),
    signal: abort.signal,
    sync: false,
    ...(bech32Prefix === undefined ? {} : { bech32Prefix }),
  });
  return { code, err };
}
