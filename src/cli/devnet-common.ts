import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { bech32PrefixProblem, DEFAULT_BECH32_PREFIX } from "../core/address.js";
import type { Namespace } from "../core/namespace.js";
import { parseApiAddress, parseAppToml } from "../server/config.js";
import { type CommandSpec, HELP_FLAG, isHelp, type Parsed, parseCobra } from "./devnet-flags.js";

/**
 * Shared plumbing of the devnet commands (init, start, visor, tx, query): they are registered with commander only to
 * receive their raw arguments, which go through the cobra-style parser (devnet-flags.ts) so that errors read as the
 * reference daemon's: `Error: <message>` on stderr, no usage text, exit code 1.
 */
export interface Io {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

export type Handler = (p: Parsed, io: Io) => Promise<number>;

export interface DevnetCommand {
  readonly path: readonly string[];
  readonly aliases?: readonly string[];
  readonly summary: string;
  readonly usage: string;
  readonly spec: CommandSpec;
  readonly run: Handler;
}

/** Runs a command: parse, `--help`, then the handler; a parse error is `Error: <message>`, exit 1. */
export async function runCommand(c: DevnetCommand, argv: readonly string[], io: Io): Promise<number> {
  const p = parseCobra(argv, c.spec);
  if (!p.ok) {
    io.err(`Error: ${p.error}`);
    return 1;
  }
  if (isHelp(p.value)) {
    const flags = [...c.spec.flags, HELP_FLAG].map(
      (f) =>
        `  ${f.short === undefined ? "    " : `-${f.short}, `}--${f.name}${f.kind === "bool" ? "" : ` ${f.kind === "list" ? "strings" : f.kind === "int64" ? "int" : "string"}`}`,
    );
    io.out(`${c.summary}\n\nUsage:\n  chainsim ${c.usage}\n\nFlags:\n${flags.join("\n")}`);
    return 0;
  }
  return c.run(p.value, io);
}

/** Summaries of the intermediate groups (`tx upgrade`), shown in their parent's help and their own. */
export const GROUP_SUMMARIES: Readonly<Record<string, string>> = {
  tx: "Transactions subcommands",
  "tx upgrade": "Upgrade transaction subcommands",
  "tx gov": "Transactions commands for the gov module",
};

const isHelpFlag = (a: string) => a === "--help" || a === "-h";

/** The commands one level below `prefix`: each child word with its summary (a command's, or a group's). */
export function childrenOf(
  group: string,
  prefix: readonly string[],
  commands: readonly DevnetCommand[],
): { name: string; summary: string }[] {
  const out = new Map<string, string>();
  for (const c of commands) {
    if (c.path.length <= prefix.length || !prefix.every((seg, i) => c.path[i] === seg)) continue;
    const word = c.path[prefix.length]!;
    if (out.has(word)) continue;
    const leaf = c.path.length === prefix.length + 1;
    out.set(word, leaf ? c.summary : (GROUP_SUMMARIES[[group, ...prefix, word].join(" ")] ?? ""));
  }
  return [...out].map(([name, summary]) => ({ name, summary }));
}

/** cobra's help of a group: its summary, usage and the available commands. */
export function groupHelp(group: string, prefix: readonly string[], commands: readonly DevnetCommand[]): string {
  const path = ["chainsim", group, ...prefix].join(" ");
  const kids = childrenOf(group, prefix, commands);
  const width = Math.max(11, ...kids.map((k) => k.name.length + 1));
  return [
    GROUP_SUMMARIES[[group, ...prefix].join(" ")] ?? "",
    "",
    "Usage:",
    `  ${path} [command]`,
    "",
    "Available Commands:",
    ...kids.map((k) => `  ${k.name.padEnd(width)} ${k.summary}`),
    "",
    `Use "${path} [command] --help" for more information about a command.`,
  ].join("\n");
}

/**
 * Registers a group (`tx`) or a leaf command (`init`) on commander; every argument reaches the cobra parser
 * untouched. A group dispatches on its first arguments to the command whose path they spell; a group path alone,
 * or with `--help`/`-h`, prints that group's help (exit 0); an unknown word is `Error: unknown command`, exit 1.
 */
export function registerGroup(
  program: Command,
  name: string,
  aliases: readonly string[],
  summary: string,
  commands: readonly DevnetCommand[],
  io: Io,
  setExit: (code: number) => void,
): void {
  const leaf = commands.length === 1 && commands[0]!.path.length === 0 ? commands[0] : undefined;
  const cmd = program
    .command(name)
    .description(summary)
    .allowUnknownOption()
    .allowExcessArguments()
    .helpOption(false)
    .argument("[args...]");
  for (const a of aliases) cmd.alias(a);
  cmd.action(async (args: string[]) => {
    if (leaf !== undefined) {
      setExit(await runCommand(leaf, args, io));
      return;
    }
    const match = commands.find((c) => c.path.every((seg, i) => seg === args[i] || c.aliases?.includes(args[i]!)));
    if (match !== undefined) {
      setExit(await runCommand(match, args.slice(match.path.length), io));
      return;
    }
    // The longest run of leading words that names a group, then what follows it.
    const prefix: string[] = [];
    while (prefix.length < args.length && childrenOf(name, [...prefix, args[prefix.length]!], commands).length > 0)
      prefix.push(args[prefix.length]!);
    const rest = args.slice(prefix.length);
    if (rest.length === 0 || rest.every(isHelpFlag)) {
      io.out(groupHelp(name, prefix, commands));
      setExit(0);
      return;
    }
    const at = ["chainsim", name, ...prefix].join(" ");
    io.err(`Error: unknown command "${rest[0]}" for "${at}"`);
    setExit(1);
  });
}

/** `$CHAINSIM_HOME`, else `~/.chainsim`. */
export const defaultHome = (): string => process.env.CHAINSIM_HOME ?? join(homedir(), ".chainsim");

/**
 * The REST base URL: `--node` (http(s)://host:port, or tcp://host:port), else the home's app.toml `api.address`,
 * else `http://127.0.0.1:1317`.
 */
/** The wire namespace of the home's node (`config/app.toml` `[chainsim] namespace`); `chain` without a readable one. */
export function homeNamespace(home: string): Namespace {
  try {
    const cfg = parseAppToml(readFileSync(join(home, "config", "app.toml"), "utf8"));
    if (cfg.ok) return cfg.value.namespace;
  } catch {
    // no home: the default namespace
  }
  return "chain";
}

/**
 * The bech32 prefix of the home's chain (`config/genesis.json` `chain.bech32Prefix`): what its keys' addresses and
 * the gov authority carry; `chain` without a readable genesis or without the key (the genesis is validated by
 * `start`, not here).
 */
export function homeBech32Prefix(home: string): string {
  try {
    const doc = JSON.parse(readFileSync(join(home, "config", "genesis.json"), "utf8")) as { chain?: unknown };
    const chain = doc.chain;
    if (typeof chain === "object" && chain !== null && "bech32Prefix" in chain) {
      const v = chain.bech32Prefix;
      if (typeof v === "string" && bech32PrefixProblem(v) === undefined) return v;
    }
  } catch {
    // no home or no readable genesis: the default prefix
  }
  return DEFAULT_BECH32_PREFIX;
}

export function nodeUrl(flag: string, home: string): string {
  const fromAddr = (a: string) => {
    const r = parseApiAddress(a.startsWith("tcp://") ? a : `tcp://${a}`);
    if (!r.ok) return undefined;
    const host = r.value.host === "" || r.value.host === "0.0.0.0" ? "127.0.0.1" : r.value.host;
    return `http://${host.includes(":") ? `[${host}]` : host}:${r.value.port}`;
  };
  if (flag !== "")
    return /^https?:\/\//.test(flag) ? flag.replace(/\/+$/, "") : (fromAddr(flag.replace(/^tcp:\/\//, "")) ?? flag);
  try {
    const cfg = parseAppToml(readFileSync(join(home, "config", "app.toml"), "utf8"));
    if (cfg.ok) return fromAddr(cfg.value.api.address) ?? "http://127.0.0.1:1317";
  } catch {
    // no home: the default address
  }
  return "http://127.0.0.1:1317";
}

export interface RestReply {
  readonly status: number;
  readonly body: string;
}

/** One REST request; a transport failure is the Go-like `post "<url>": <reason>` text. */
export async function rest(
  method: "GET" | "POST",
  url: string,
  opts: { readonly body?: string; readonly headers?: Record<string, string>; readonly timeoutMs?: number } = {},
): Promise<{ ok: true; value: RestReply } | { ok: false; error: string }> {
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(opts.body === undefined ? {} : { "Content-Type": "application/json" }), ...opts.headers },
      ...(opts.body === undefined ? {} : { body: opts.body }),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
    return { ok: true, value: { status: res.status, body: await res.text() } };
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code === "ECONNREFUSED" ? "connect: connection refused" : (cause?.message ?? String(e));
    return { ok: false, error: `${method.toLowerCase()} "${url}": ${reason}` };
  }
}

/** A user's mistake in a devnet command: printed as `Error: <message>`, exit 1 (see `guarded`). */
export class Fail {
  constructor(readonly message: string) {}
}

/** Runs a handler, turning a thrown `Fail` into `Error: <message>` and exit 1. */
export const guarded =
  (run: (p: Parsed, io: Io) => Promise<number>) =>
  async (p: Parsed, io: Io): Promise<number> => {
    try {
      return await run(p, io);
    } catch (e) {
      if (!(e instanceof Fail)) throw e;
      io.err(`Error: ${e.message}`);
      return 1;
    }
  };
