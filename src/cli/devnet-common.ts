import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { parseApiAddress, parseAppToml } from "../server/config.js";
import { type CommandSpec, isHelp, type Parsed, parseCobra } from "./devnet-flags.js";

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
    io.out(`${c.summary}\n\nUsage:\n  chainsim ${c.usage}`);
    return 0;
  }
  return c.run(p.value, io);
}

/**
 * Registers a group (`tx`, `query`) or a leaf command (`init`) on commander; every argument reaches the cobra parser
 * untouched. A group dispatches on its first arguments to the command whose path they spell.
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
    if (match === undefined) {
      const known = commands.map((c) => `  chainsim ${name} ${c.path.join(" ")}`).join("\n");
      io.err(`Error: unknown command "${args.slice(0, 2).join(" ")}" for "chainsim ${name}"\n\nAvailable:\n${known}`);
      setExit(1);
      return;
    }
    setExit(await runCommand(match, args.slice(match.path.length), io));
  });
}

/** `$CHAINSIM_HOME`, else `~/.chainsim`. */
export const defaultHome = (): string => process.env.CHAINSIM_HOME ?? join(homedir(), ".chainsim");

/**
 * The REST base URL: `--node` (http(s)://host:port, or tcp://host:port), else the home's app.toml `api.address`,
 * else `http://127.0.0.1:1317`.
 */
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
