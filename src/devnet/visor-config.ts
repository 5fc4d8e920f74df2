import { existsSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import { parseDuration } from "../core/go/duration.js";

/**
 * What `chainsim visor` (visor.ts) reads besides the home: the cosmovisor v1.x knobs from the environment
 * (docs/fidelity.md §4.4; errors joined, as the reference does) and the `chainsim start` arguments it passes through
 * (`--binary`, replaced on a switch; `--unsafe-skip-upgrades`, whose heights it skips).
 */
export interface VisorConfig {
  readonly pollIntervalMs: number;
  readonly restartAfterUpgrade: boolean;
  readonly shutdownGraceMs: number;
  readonly restartDelayMs: number;
  readonly skipBackup: boolean;
  readonly preUpgradeMaxRetries: number;
  readonly backupDir: string;
  readonly customPreUpgrade: string;
  readonly preUpgradeCommand: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

function envBool(env: Env, name: string, dflt: boolean, errors: string[]): boolean {
  const v = (env[name] ?? "").trim();
  if (v === "") return dflt;
  if (v.toLowerCase() === "true") return true;
  if (v.toLowerCase() === "false") return false;
  errors.push(`env variable "${name}" must have a boolean value ("true" or "false"), got "${v}"`);
  return dflt;
}

function envDuration(env: Env, name: string, dflt: number, positive: boolean, errors: string[]): number {
  const v = (env[name] ?? "").trim();
  if (v === "") return dflt;
  const d = parseDuration(v);
  if (!d.ok) {
    errors.push(`invalid ${name}: ${d.error}`);
    return dflt;
  }
  if (positive && d.value <= 0) errors.push(`${name} must be greater than 0`);
  return d.value;
}

/** The knobs of docs/fidelity.md §4.4 from the environment; errors are joined, as the reference does. */
export function visorConfig(home: string, env: Env): { ok: true; value: VisorConfig } | { ok: false; error: string } {
  const errors: string[] = [];
  const retriesText = (env.DAEMON_PREUPGRADE_MAX_RETRIES ?? "").trim();
  const retries = retriesText === "" ? 0 : Number(retriesText);
  if (!Number.isSafeInteger(retries) || retries < 0)
    errors.push(`DAEMON_PREUPGRADE_MAX_RETRIES must be a non-negative integer, got "${retriesText}"`);
  const cfg: VisorConfig = {
    pollIntervalMs: envDuration(env, "DAEMON_POLL_INTERVAL", 300, true, errors),
    restartAfterUpgrade: envBool(env, "DAEMON_RESTART_AFTER_UPGRADE", true, errors),
    shutdownGraceMs: envDuration(env, "DAEMON_SHUTDOWN_GRACE", 0, false, errors),
    restartDelayMs: envDuration(env, "DAEMON_RESTART_DELAY", 0, false, errors),
    skipBackup: envBool(env, "UNSAFE_SKIP_BACKUP", false, errors),
    preUpgradeMaxRetries: retries,
    backupDir: (env.DAEMON_DATA_BACKUP_DIR ?? "").trim() || home,
    customPreUpgrade: (env.COSMOVISOR_CUSTOM_PREUPGRADE ?? "").trim(),
    preUpgradeCommand: (env.DAEMON_PREUPGRADE_COMMAND ?? "").trim(),
  };
  if (!cfg.skipBackup) {
    if (!isAbsolute(cfg.backupDir)) errors.push("DAEMON_DATA_BACKUP_DIR must be an absolute path");
    else if (!existsSync(cfg.backupDir) || !statSync(cfg.backupDir).isDirectory())
      errors.push(`DAEMON_DATA_BACKUP_DIR must exist, got ${cfg.backupDir}`);
  }
  return errors.length > 0 ? { ok: false, error: errors.join("\n") } : { ok: true, value: cfg };
}

/** The `--binary` value of start args, and the args with it replaced (appended when absent). */
export function withBinary(args: readonly string[], binary: string): string[] {
  const out: string[] = [];
  let found = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--binary") {
      out.push(a, binary);
      i++;
      found = true;
    } else if (a.startsWith("--binary=")) {
      out.push(`--binary=${binary}`);
      found = true;
    } else out.push(a);
  }
  if (!found) out.push("--binary", binary);
  return out;
}

export function binaryArg(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--binary") return args[i + 1];
    if (a.startsWith("--binary=")) return a.slice("--binary=".length);
  }
  return undefined;
}

/** Heights listed in `--unsafe-skip-upgrades` (comma-separated, repeatable). */
export function skipHeightsArg(args: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const v =
      a === "--unsafe-skip-upgrades"
        ? args[i + 1]
        : a.startsWith("--unsafe-skip-upgrades=")
          ? a.split("=")[1]
          : undefined;
    for (const s of (v ?? "").split(",")) if (/^[0-9]+$/.test(s.trim())) out.push(Number(s.trim()));
  }
  return out;
}
