/**
 * `chainsim import` (docs/profile-format.md): reads one live node over HTTP into a rehearsal profile.
 *
 * Steps: 1. check the flags (exit 2 on the first bad one, before any request); 2. run the importer's core
 * (src/rehearse/import.ts) over the HTTP fetcher (./import-http.ts: timeout, retries with backoff); 3. write the
 * profile atomically (a temporary file beside `--out`, then a rename: the file is whole or absent); 4. print a
 * summary (text, or one JSON object with `--json`). Progress lines go to stderr every 100 requests, not with `--json`.
 * A failure is one line on stderr naming the endpoint and what was wrong, with the exit codes of `IMPORT_EXIT`.
 */
import { statSync } from "node:fs";
import { dirname } from "node:path";
import type { Command } from "commander";
import { parseDurationNs } from "../core/go/duration.js";
import { isNamespace, NAMESPACES, type Namespace } from "../core/namespace.js";
import { writeFileAtomic } from "../node/atomic-write.js";
import { type Imported, importProfile, MAX_REQUESTS_DEFAULT, MAX_VALIDATORS_DEFAULT } from "../rehearse/import.js";
import type { ImportFailure } from "../rehearse/reader.js";
import { profileToYaml } from "../scenario/profile.js";
import { HTTP_DEFAULTS, httpFetcher } from "./import-http.js";

/** The exit codes of `chainsim import`. */
export const IMPORT_EXIT = {
  ok: 0,
  /** A bad flag, or an `--out` that cannot be written. Nothing is written. */
  usage: 2,
  /** The node could not be reached: refused, unresolved, no answer within the timeout (after the retries). */
  unreachable: 4,
  /** The node answered, but not usably: see `ImportFailure.kind`. */
  badAnswer: 5,
} as const;

export interface ImportFlags {
  readonly rest?: string;
  readonly rpc?: string;
  readonly namespace?: string;
  readonly history?: string;
  readonly out?: string;
  readonly json?: boolean;
  readonly maxValidators?: string;
  readonly maxRequests?: string;
  readonly timeout?: string;
}

interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

interface Parsed {
  readonly rest: string;
  readonly rpc: string;
  readonly namespace: Namespace;
  readonly historyMs: number;
  readonly out: string;
  readonly maxValidators: number;
  readonly maxRequests: number;
  readonly timeoutMs: number;
}

const HISTORY_MAX_MS = 90 * 86_400_000;

/** `7d`, `36h`, `90m`: days, or any Go duration; from 1h to 90d. */
export function parseHistory(text: string): number | string {
  const days = /^([0-9]{1,3})d$/.exec(text);
  let ms: number;
  if (days !== null) ms = Number(days[1]) * 86_400_000;
  else {
    const ns = parseDurationNs(text);
    if (!ns.ok) return `--history: expected e.g. 7d or 36h, got ${JSON.stringify(text)}`;
    ms = Number(ns.value / 1_000_000n);
  }
  if (ms < 3_600_000 || ms > HISTORY_MAX_MS) return `--history: must be from 1h to 90d, got ${JSON.stringify(text)}`;
  return ms;
}

function parseUrl(flag: string, text: string | undefined): string {
  if (text === undefined) throw new FlagError(`${flag} is required`);
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new FlagError(`${flag}: not a URL: ${JSON.stringify(text)}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new FlagError(`${flag}: expected an http:// or https:// URL, got ${JSON.stringify(text)}`);
  return text.replace(/\/+$/, "");
}

function parseCount(flag: string, text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^[0-9]{1,9}$/.test(text) || Number(text) < 1 || Number(text) > max)
    throw new FlagError(`${flag}: expected an integer from 1 to ${max}, got ${JSON.stringify(text)}`);
  return Number(text);
}

class FlagError extends Error {}

function parseFlags(f: ImportFlags): Parsed {
  const rest = parseUrl("--rest", f.rest);
  const rpc = parseUrl("--rpc", f.rpc);
  const namespace = f.namespace ?? "chain";
  if (!isNamespace(namespace))
    throw new FlagError(`--namespace: expected ${NAMESPACES.join(" or ")}, got ${JSON.stringify(namespace)}`);
  const historyMs = parseHistory(f.history ?? "7d");
  if (typeof historyMs === "string") throw new FlagError(historyMs);
  if (f.out === undefined) throw new FlagError("--out is required");
  const dir = dirname(f.out);
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {}
  if (!isDir)
    throw new FlagError(`--out: ${JSON.stringify(f.out)}: the directory ${JSON.stringify(dir)} does not exist`);
  let timeoutMs = HTTP_DEFAULTS.timeoutMs;
  if (f.timeout !== undefined) {
    const ns = parseDurationNs(f.timeout);
    if (!ns.ok || ns.value < 1_000_000n || ns.value > 600_000_000_000n)
      throw new FlagError(`--timeout: expected a duration from 1ms to 10m, got ${JSON.stringify(f.timeout)}`);
    timeoutMs = Number(ns.value / 1_000_000n);
  }
  return {
    rest,
    rpc,
    namespace,
    historyMs,
    out: f.out,
    maxValidators: parseCount("--max-validators", f.maxValidators, MAX_VALIDATORS_DEFAULT, 100_000),
    maxRequests: parseCount("--max-requests", f.maxRequests, MAX_REQUESTS_DEFAULT, 100_000),
    timeoutMs,
  };
}

/** Writes `text` to `path` whole or not at all (writeFileAtomic); the error line names `--out` when it fails. */
function writeAtomically(path: string, text: string): string | undefined {
  try {
    writeFileAtomic(path, text);
    return undefined;
  } catch (e) {
    return `--out: ${path}: ${e instanceof Error ? e.message : String(e)}`;
  }
}

function summaryText(i: Imported, out: string): string {
  const p = i.profile;
  const h = p.history!;
  const plan = p.plan === null ? "no plan" : `plan ${p.plan.name} at ${p.plan.height}`;
  return [
    `imported ${p.source.chainId} at height ${p.at.height} (${p.at.time}) into ${out}`,
    `  ${p.chain.validators!.length} validators, ${plan}, ${p.proposals!.length} pending proposals, ${p.applied!.length} applied plans named`,
    `  mean block time ${h.meanBlockTime.window} over heights ${h.from.height}-${h.to.height} (last day ${h.meanBlockTime.lastDay}, last hour ${h.meanBlockTime.lastHour})`,
    `  ${i.samples} headers sampled; ${i.requests} requests (${i.historyRequests} for the history)`,
  ].join("\n");
}

function summaryJson(i: Imported, out: string, attempts: number): string {
  const p = i.profile;
  return JSON.stringify({
    out,
    chain_id: p.source.chainId,
    height: p.at.height,
    time: p.at.time,
    validators: p.chain.validators!.length,
    plan: p.plan,
    proposals: p.proposals!.length,
    applied: p.applied!.length,
    samples: i.samples,
    requests: i.requests,
    history_requests: i.historyRequests,
    http_attempts: attempts,
    mean_block_time: p.history!.meanBlockTime,
  });
}

const exitOf = (f: ImportFailure): number =>
  f.kind === "unreachable" ? IMPORT_EXIT.unreachable : IMPORT_EXIT.badAnswer;

/** Runs `chainsim import`; returns the exit code. */
export async function runImport(flags: ImportFlags, io: Io): Promise<number> {
  let p: Parsed;
  try {
    p = parseFlags(flags);
  } catch (e) {
    if (!(e instanceof FlagError)) throw e;
    io.err(`Error: ${e.message}`);
    return IMPORT_EXIT.usage;
  }
  const fetcher = httpFetcher({ ...HTTP_DEFAULTS, timeoutMs: p.timeoutMs });
  const progress = flags.json === true ? undefined : (n: number) => n % 100 === 0 && io.err(`import: ${n} requests`);
  const r = await importProfile({
    rest: p.rest,
    rpc: p.rpc,
    namespace: p.namespace,
    historyMs: p.historyMs,
    maxValidators: p.maxValidators,
    maxRequests: p.maxRequests,
    concurrency: 4,
    fetch: fetcher,
    ...(progress === undefined ? {} : { onRequest: progress }),
  });
  if (!r.ok) {
    io.err(`Error: ${r.error.endpoint}: ${r.error.message}`);
    return exitOf(r.error);
  }
  const wrote = writeAtomically(p.out, profileToYaml(r.value.profile));
  if (wrote !== undefined) {
    io.err(`Error: ${wrote}`);
    return IMPORT_EXIT.usage;
  }
  io.out(flags.json === true ? summaryJson(r.value, p.out, fetcher.attemptsMade()) : summaryText(r.value, p.out));
  return IMPORT_EXIT.ok;
}

export function registerImport(program: Command, io: Io, setExit: (c: number) => void): void {
  program
    .command("import")
    .description(
      "read a live node (CometBFT RPC and REST) into a rehearsal profile (docs/profile-format.md); exit 0 written, 2 bad flag or --out, 4 node unreachable, 5 unusable answer",
    )
    .option("--rest <url>", "the node's REST (gRPC-gateway) URL, e.g. http://127.0.0.1:1317")
    .option("--rpc <url>", "the node's CometBFT RPC URL, e.g. http://127.0.0.1:26657")
    .option("--namespace <ns>", "names the node speaks: chain (chainsim) or cosmos (Cosmos SDK)", "chain")
    .option("--history <span>", "block-time history to sample: 7d, 36h, ... (1h to 90d)", "7d")
    .option("--out <file>", "the profile to write (YAML), atomically")
    .option("--json", "print one JSON summary on stdout (and no progress on stderr)")
    .option("--max-validators <n>", `refuse a bonded set larger than this (default ${MAX_VALIDATORS_DEFAULT})`)
    .option("--max-requests <n>", `the most HTTP requests one import makes (default ${MAX_REQUESTS_DEFAULT})`)
    .option(
      "--timeout <duration>",
      `each request's timeout, before retries (default ${HTTP_DEFAULTS.timeoutMs / 1000}s)`,
    )
    .action(async (opts: ImportFlags) => setExit(await runImport(opts, io)));
}
