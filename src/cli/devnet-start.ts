import type { Command } from "commander";
import { parseDuration } from "../core/go/duration.js";
import { runNode } from "../devnet/node.js";
import { type DevnetCommand, defaultHome, type Io, registerGroup } from "./devnet-common.js";
import { flagBool, flagString } from "./devnet-flags.js";

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

/** `chainsim start`: the live node (devnet/node.ts); SIGINT/SIGTERM stop it after the current block. */
export const startCommand: DevnetCommand = {
  path: [],
  summary: "Run a devnet node: wall-clock blocks, LevelDB state under data/, REST and gRPC per app.toml",
  usage: "start --home DIR --binary NAME [--unsafe-skip-upgrades h,...] [--block-time 1s] [--no-fsync]",
  spec: {
    args: { exact: 0 },
    flags: [
      { name: "home", kind: "string" },
      { name: "binary", kind: "string", required: true },
      { name: "unsafe-skip-upgrades", kind: "list" },
      { name: "block-time", kind: "string" },
      { name: "no-fsync", kind: "bool" },
    ],
  },
  run: async (p, io) => {
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
