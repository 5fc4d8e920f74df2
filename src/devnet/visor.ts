import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { errorText } from "../core/errors.js";
import { parseUpgradeInfoJson } from "../upgrade/upgrade-info.js";
import { binariesWithHandler } from "./genesis.js";
import { readHome } from "./home.js";
import { binaryArg, type Env, skipHeightsArg, type VisorConfig, visorConfig, withBinary } from "./visor-config.js";

/**
 * `chainsim visor`: a supervisor modelled on cosmovisor v1.x (docs/fidelity.md §4.2, §4.3, §4.4), for devnet nodes whose
 * "binaries" are the definitions of the home's binaries file.
 *
 * - Runs `chainsim start <args>` with the current binary (`--binary` replaced), passes stdio through, forwards
 *   SIGINT/SIGTERM, and never restarts a node that crashed (exit code ≠ 0 without an upgrade: the visor exits with it).
 * - Watches `data/upgrade-info.json` every DAEMON_POLL_INTERVAL; a file is considered only when its mtime is newer
 *   than the last one seen. Its `name` must be non-empty and `height` > 0. First read after the visor starts: upgrade
 *   when the name differs (case-insensitive) from the current upgrade's; later reads: when the height is greater
 *   than the last seen. A node exit triggers one immediate re-check. (The v1.6 height gate is not modelled: the
 *   devnet node exits when it halts.)
 * - Upgrade: stop the node (SIGINT and DAEMON_SHUTDOWN_GRACE, else SIGKILL) → a plan height listed in the node's
 *   `--unsafe-skip-upgrades` skips the rest → DAEMON_RESTART_DELAY → backup of data/ to
 *   `$DAEMON_DATA_BACKUP_DIR/data-backup-<Y>-<M>-<D>` unless UNSAFE_SKIP_BACKUP → COSMOVISOR_CUSTOM_PREUPGRADE
 *   script (`cosmovisor/<script> <name> <height>`, cwd = home) → switch: the binary named in
 *   `cosmovisor/upgrades/<name>/binary` if present, else the only binary that registers a handler for the plan;
 *   `cosmovisor/current.json` and `cosmovisor/upgrades/<name>/upgrade-info.json` record it → pre-upgrade (below) →
 *   relaunch with the same args if DAEMON_RESTART_AFTER_UPGRADE, else exit 0.
 * - Pre-upgrade: the binaries are definitions, not executables, so `<new binary> pre-upgrade` is the command in
 *   DAEMON_PREUPGRADE_COMMAND (run by `sh -c`, with `<name> <height>` appended); unset means exit code 1. Exit codes
 *   per docs/fidelity.md §4.3: 0 ok; 1 "does not exist", continue; 30 fail; 31 retry up to DAEMON_PREUPGRADE_MAX_RETRIES; other: ok.
 */
interface Current {
  readonly binary: string;
  readonly upgrade?: { readonly name: string; readonly height: number };
}

export interface VisorOptions {
  readonly home: string;
  /** `chainsim start` arguments (after `--`). */
  readonly args: readonly string[];
  readonly env: Env;
  /** Starts `chainsim start <args>`. */
  readonly launch: (args: readonly string[]) => ChildProcess;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Seen {
  mtimeMs: number;
  height: number;
  first: boolean;
}

type Upgrade = { name: string; height: number };
type Home = Extract<ReturnType<typeof readHome>, { ok: true }>["value"];

/**
 * The supervision loop: 1. run the node and watch data/upgrade-info.json until an upgrade is due or the node exits
 * (`watchNode`); 2. stop the node; 3. a skipped height relaunches the same binary; 4.–8. the upgrade
 * (`performUpgrade`: delay, backup, custom script, switch, pre-upgrade); 9. relaunch, or exit 0 when
 * DAEMON_RESTART_AFTER_UPGRADE is off.
 */
export async function runVisor(o: VisorOptions): Promise<number> {
  const fail = (m: string) => {
    o.err(`Error: ${m}`);
    return 1;
  };
  const home = readHome(o.home);
  if (!home.ok) return fail(home.error.join("\n"));
  const paths = home.value.paths;
  const cfgR = visorConfig(paths.home, o.env);
  if (!cfgR.ok) return fail(cfgR.error);
  const cfg = cfgR.value;
  const visorDir = join(paths.home, "cosmovisor");
  const currentPath = join(visorDir, "current.json");
  const readCurrent = (): Current | undefined => {
    try {
      return JSON.parse(readFileSync(currentPath, "utf8")) as Current;
    } catch {
      return undefined;
    }
  };
  let current: Current = readCurrent() ?? { binary: binaryArg(o.args) ?? home.value.chain.genesisBinary };
  const check = upgradeInfoCheck(paths.upgradeInfo, o, () => current);

  for (;;) {
    // 1. run and watch
    const watched = await watchNode(o, cfg, current, check);
    if (watched.kind === "exit") return watched.code;
    if (watched.kind === "fatal") return fail(watched.message);
    const { upgrade } = watched;
    // 2. stop the node
    await stopNode(watched, cfg, o);
    // 3. skip heights
    if (skipHeightsArg(o.args).includes(upgrade.height)) {
      o.out(`INF upgrade "${upgrade.name}" at height ${upgrade.height} is listed in --unsafe-skip-upgrades: skipping`);
      continue;
    }
    o.out(`INF upgrade detected name=${upgrade.name} height=${upgrade.height}`);
    const next = await performUpgrade(upgrade, cfg, home.value, o);
    if (typeof next === "string") return fail(next);
    current = next;
    // 9. restart
    if (!cfg.restartAfterUpgrade) {
      o.out("upgrade detected, DAEMON_RESTART_AFTER_UPGRADE is off. Verify new upgrade and start cosmovisor again.");
      return 0;
    }
    if (o.signal?.aborted === true) return 0;
  }
}

/**
 * One poll of data/upgrade-info.json: the plan to upgrade to, undefined, or a fatal error text. A file counts only
 * when its mtime is newer than the last one seen; the first read upgrades when the name differs from the current
 * upgrade's, later reads when the height is greater than the last seen.
 */
function upgradeInfoCheck(
  upgradeInfo: string,
  o: VisorOptions,
  current: () => Current,
): () => Upgrade | undefined | string {
  const seen: Seen = { mtimeMs: 0, height: 0, first: true };
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(upgradeInfo).mtimeMs;
    } catch {
      return undefined;
    }
    if (mtimeMs <= seen.mtimeMs) return undefined;
    seen.mtimeMs = mtimeMs;
    let text: string;
    try {
      text = readFileSync(upgradeInfo, "utf8");
    } catch {
      return undefined;
    }
    const d = parseUpgradeInfoJson(text);
    const plan = d.ok ? d.value : d.plan;
    if (!d.ok && o.env.DEBUG !== undefined) o.err(`upgrade-info.json: ${errorText(d.error)}`);
    if (plan.name === "" || plan.height <= 0n)
      return "invalid upgrade-info.json content; name and height must be not empty";
    const up = { name: plan.name.toLowerCase(), height: Number(plan.height) };
    const first = seen.first;
    seen.first = false;
    const lastHeight = seen.height;
    seen.height = Math.max(seen.height, up.height);
    if (first) return up.name !== current().upgrade?.name.toLowerCase() ? up : undefined;
    return up.height > lastHeight ? up : undefined;
  };
}

/** What watching a node ended with: its exit (the visor's exit code), a fatal error, or an upgrade to perform. */
type Watched =
  | { readonly kind: "exit"; readonly code: number }
  | { readonly kind: "fatal"; readonly message: string }
  | {
      readonly kind: "upgrade";
      readonly upgrade: Upgrade;
      readonly child: ChildProcess;
      readonly exited: Promise<number>;
      /** Set when the node had exited already. */
      readonly exitCode: number | undefined;
    };

/** Step 1: launches the current binary, forwards the abort signal, and polls until an upgrade or the node's exit. */
async function watchNode(
  o: VisorOptions,
  cfg: VisorConfig,
  current: Current,
  check: () => Upgrade | undefined | string,
): Promise<Watched> {
  const args = withBinary(o.args, current.binary);
  o.out(`INF running app binary=${current.binary} args=${JSON.stringify(args)}`);
  const child = o.launch(args);
  const exited = new Promise<number>((resolve) => child.once("exit", (code, sig) => resolve(code ?? (sig ? 128 : 1))));
  let exitCode: number | undefined;
  void exited.then((c) => (exitCode = c));
  const forward = () => child.kill("SIGTERM");
  o.signal?.addEventListener("abort", forward, { once: true });

  let upgrade: Upgrade | undefined;
  for (;;) {
    const c = check();
    if (typeof c === "string") {
      child.kill("SIGKILL");
      await exited;
      return { kind: "fatal", message: c };
    }
    if (c !== undefined) {
      upgrade = c;
      break;
    }
    if (exitCode !== undefined) {
      // The node exited: one re-check (its halt may have just written the file), then give up.
      const again = check();
      if (typeof again === "string") return { kind: "fatal", message: again };
      if (again === undefined) {
        o.signal?.removeEventListener("abort", forward);
        if (o.signal?.aborted === true) return { kind: "exit", code: 0 };
        if (exitCode !== 0) o.err(`ERR node exited with code ${exitCode} and no upgrade is pending`);
        return { kind: "exit", code: exitCode };
      }
      upgrade = again;
      break;
    }
    await Promise.race([sleep(cfg.pollIntervalMs), exited]);
  }
  o.signal?.removeEventListener("abort", forward);
  return { kind: "upgrade", upgrade, child, exited, exitCode };
}

/** Step 2: a running node gets SIGINT and DAEMON_SHUTDOWN_GRACE, else SIGKILL. */
async function stopNode(w: Extract<Watched, { kind: "upgrade" }>, cfg: VisorConfig, o: VisorOptions): Promise<void> {
  if (w.exitCode !== undefined) return;
  const { child, exited } = w;
  o.out("INF daemon shutting down in an attempt to restart");
  if (cfg.shutdownGraceMs > 0) {
    child.kill("SIGINT");
    const done = await Promise.race([exited.then(() => true), sleep(cfg.shutdownGraceMs).then(() => false)]);
    if (!done) child.kill("SIGKILL");
  } else child.kill("SIGKILL");
  await exited;
}

/** Steps 4 to 8: restart delay, backup, custom pre-upgrade script, binary switch, pre-upgrade; the new current. */
async function performUpgrade(
  upgrade: Upgrade,
  cfg: VisorConfig,
  home: Home,
  o: VisorOptions,
): Promise<Current | string> {
  const paths = home.paths;
  const visorDir = join(paths.home, "cosmovisor");
  // 4. restart delay
  if (cfg.restartDelayMs > 0) await sleep(cfg.restartDelayMs);
  // 5. backup
  if (!cfg.skipBackup) {
    const now = new Date();
    const dest = join(cfg.backupDir, `data-backup-${now.getFullYear()}-${now.getMonth() + 1}-${now.getDate()}`);
    o.out(`INF starting to take backup of data directory backup_dir=${dest}`);
    try {
      cpSync(paths.data, dest, { recursive: true, force: true });
    } catch (e) {
      return `error while taking data backup: ${e instanceof Error ? e.message : String(e)}`;
    }
    o.out(`INF backup completed backup_dir=${dest}`);
  }
  // 6. custom pre-upgrade script
  if (cfg.customPreUpgrade !== "") {
    const script = join(visorDir, cfg.customPreUpgrade);
    const code = await runShell(`"${script}"`, [upgrade.name, String(upgrade.height)], paths.home);
    if (code !== 0) return `error running custom pre-upgrade script: exit status ${code}`;
  }
  // 7. switch
  const target = targetBinary(visorDir, upgrade.name, home);
  if (!target.ok) return target.error;
  const upDir = join(visorDir, "upgrades", upgrade.name);
  const current = { binary: target.value, upgrade };
  try {
    mkdirSync(upDir, { recursive: true });
    writeFileSync(join(upDir, "upgrade-info.json"), readFileSync(paths.upgradeInfo));
    writeFileSync(join(visorDir, "current.json"), `${JSON.stringify(current)}\n`);
  } catch (e) {
    return `failed to switch binary: ${e instanceof Error ? e.message : String(e)}`;
  }
  o.out(`INF upgrade binary switched binary=${target.value}`);
  // 8. pre-upgrade
  const pre = await preUpgrade(cfg, upgrade, paths.home, o.out);
  return pre ?? current;
}

function targetBinary(
  visorDir: string,
  name: string,
  home: Home,
): { ok: true; value: string } | { ok: false; error: string } {
  const file = join(visorDir, "upgrades", name, "binary");
  if (existsSync(file)) {
    const b = readFileSync(file, "utf8").trim();
    return home.chain.binaries.has(b) ? { ok: true, value: b } : { ok: false, error: `${file}: unknown binary "${b}"` };
  }
  const exact = binariesWithHandler(home.chain, name);
  const any =
    exact.length > 0
      ? exact
      : [...home.chain.binaries.values()]
          .filter((b) => [...b.upgrades.keys()].some((k) => k.toLowerCase() === name))
          .map((b) => b.name);
  if (any.length === 1) return { ok: true, value: any[0]! };
  if (any.length === 0)
    return {
      ok: false,
      error: `binary not present, downloading disabled: no binary registers a handler for upgrade "${name}"`,
    };
  return {
    ok: false,
    error: `several binaries register a handler for upgrade "${name}" (${any.join(", ")}): write the one to use in ${file}`,
  };
}

function runShell(command: string, args: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn("sh", ["-c", `${command} "$@"`, "sh", ...args], { cwd, stdio: "inherit" });
    child.once("error", () => resolve(127));
    child.once("exit", (code) => resolve(code ?? 1));
  });
}

/** docs/fidelity.md §4.3: the pre-upgrade call with its exit-code meanings; undefined = continue, else the failure text. */
async function preUpgrade(
  cfg: VisorConfig,
  up: { name: string; height: number },
  home: string,
  out: (line: string) => void,
): Promise<string | undefined> {
  for (let attempt = 0; ; attempt++) {
    const code =
      cfg.preUpgradeCommand === "" ? 1 : await runShell(cfg.preUpgradeCommand, [up.name, String(up.height)], home);
    switch (code) {
      case 0:
        out("INF pre-upgrade successful. continuing the upgrade.");
        return undefined;
      case 1:
        out("INF pre-upgrade command does not exist. continuing the upgrade.");
        return undefined;
      case 30:
        return "pre-upgrade command failed : exit status 30";
      case 31:
        if (attempt >= cfg.preUpgradeMaxRetries)
          return `pre-upgrade command failed. reached max attempt of retries - ${cfg.preUpgradeMaxRetries}`;
        out(`ERR pre-upgrade command failed. retrying attempt=${attempt + 1}`);
        continue;
      default:
        return undefined;
    }
  }
}
