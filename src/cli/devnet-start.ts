import type { Command } from "commander";
import { parseDuration } from "../core/go/duration.js";
import { runNode } from "../devnet/node.js";
import { type DevnetCommand, defaultHome, type Io, registerGroup } from "./devnet-common.js";
import { bech32PrefixFlag, flagBool, flagString, namespaceFlag, type Parsed } from "./devnet-flags.js";

/** Parses `--unsafe-skip-upgrades` values (comma-separated, repeatable) into heights. */
export function parseSkipHeights(text: string): { ok: true; value: number[] } | { ok: false; error: string } {
  const out: number[] = [];
  for (const part of text.split(",")) {
    const s = part.trim();
    if (s === "") continue;
    if (!/^[0-9]+$/.test(s) || !Number.isSafeInteger(Number(s)))
      return {
        ok: false,
        error: `invalid argument "${text}" for "--unsafe-skip-upgrades" flag: strconv.Atoi: parsing "${s}": invalid syntax`,
      };
    out.push(Number(s));
  }
  return { ok: true, value: out };
}

const LEVELS: Readonly<Record<string, string>> = { DBG: "debug", INF: "info", WRN: "warn", ERR: "error" };

/**
 * A log line as CometBFT's JSON log format writes it (`--output json`, like `--log_format json`): `INF node started
 * home=/h height=0` → `{"level":"info","msg":"node started","home":"/h","height":"0"}`. Other lines (the upgrade
 * message) become a message of the stream's level.
 */
export function jsonLogLine(line: string, level: "info" | "error"): string {
  const m = /^(DBG|INF|WRN|ERR) (.*)$/.exec(line);
  if (m === null) return JSON.stringify({ level, msg: line });
  const words = m[2]!.split(" ");
  const firstPair = words.findIndex((w) => /^[a-z_]+=/.test(w));
  const msg = (firstPair < 0 ? words : words.slice(0, firstPair)).join(" ");
  const fields: Record<string, string> = { level: LEVELS[m[1]!]!, msg };
  if (firstPair >= 0) {
    let key = "";
    for (const w of words.slice(firstPair)) {
      const kv = /^([a-z_]+)=(.*)$/.exec(w);
      if (kv !== null) {
        key = kv[1]!;
        fields[key] = kv[2]!;
      } else fields[key] = `${fields[key]} ${w}`;
    }
  }
  return JSON.stringify(fields);
}

/** `-o/--output`: text (default) or json; anything else is an error. */
export function outputFormat(p: Parsed): { ok: true; value: "text" | "json" } | { ok: false; error: string } {
  const v = flagString(p, "output", "text");
  if (v === "text" || v === "json") return { ok: true, value: v };
  return { ok: false, error: `invalid argument "${v}" for "-o, --output" flag: expected text or json` };
}

/** `chainsim start`: the live node (devnet/node.ts); SIGINT/SIGTERM stop it after the current block. */
export const startCommand: DevnetCommand = {
  path: [],
  summary: "Run a devnet node: wall-clock blocks, LevelDB state under data/, REST and gRPC per app.toml",
  usage:
    "start --home DIR --binary NAME [--unsafe-skip-upgrades h,...] [--block-time 1s] [--no-fsync] [--namespace chain|cosmos] [--bech32-prefix HRP] [-o text|json]",
  spec: {
    args: { exact: 0 },
    flags: [
      { name: "home", kind: "string" },
      { name: "binary", kind: "string", required: true },
      { name: "unsafe-skip-upgrades", kind: "list" },
      { name: "block-time", kind: "string" },
      { name: "no-fsync", kind: "bool" },
      { name: "namespace", kind: "string" },
      { name: "bech32-prefix", kind: "string" },
      { name: "output", kind: "string", short: "o" },
    ],
  },
  run: async (p, plainIo) => {
    const format = outputFormat(p);
    if (!format.ok) {
      plainIo.err(`Error: ${format.error}`);
      return 1;
    }
    const io: Io =
      format.value === "json"
        ? { out: (l) => plainIo.out(jsonLogLine(l, "info")), err: (l) => plainIo.err(jsonLogLine(l, "error")) }
        : plainIo;
    const skip = parseSkipHeights(flagString(p, "unsafe-skip-upgrades"));
    if (!skip.ok) {
      io.err(`Error: ${skip.error}`);
      return 1;
    }
    const bt = parseDuration(flagString(p, "block-time", "1s"));
    if (!bt.ok || bt.value <= 0) {
      io.err(
        `Error: invalid argument "${flagString(p, "block-time")}" for "--block-time" flag: ${bt.ok ? "must be positive" : bt.error}`,
      );
      return 1;
    }
    const ns = namespaceFlag(p);
    if (!ns.ok) {
      io.err(`Error: ${ns.error}`);
      return 1;
    }
    const prefix = bech32PrefixFlag(p);
    if (!prefix.ok) {
      io.err(`Error: ${prefix.error}`);
      return 1;
    }
    const ac = new AbortController();
    const stop = () => ac.abort();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    try {
      return await runNode({
        home: flagString(p, "home", defaultHome()),
        binary: flagString(p, "binary"),
        skipHeights: skip.value,
        blockTimeMs: bt.value,
        out: io.out,
        err: io.err,
        signal: ac.signal,
        sync: !flagBool(p, "no-fsync"),
        ...(ns.value === undefined ? {} : { namespace: ns.value }),
        ...(prefix.value === undefined ? {} : { bech32Prefix: prefix.value }),
      });
    } finally {
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
    }
  },
};

export function registerDevnetStart(program: Command, io: Io, setExit: (code: number) => void): void {
  registerGroup(program, "start", [], startCommand.summary, [startCommand], io, setExit);
}
