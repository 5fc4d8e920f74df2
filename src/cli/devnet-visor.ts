import { spawn } from "node:child_process";
import { resolve } from "node:path";
import type { Command } from "commander";
import { runVisor } from "../devnet/visor.js";
import { type DevnetCommand, defaultHome, type Io, registerGroup } from "./devnet-common.js";
import { flagString } from "./devnet-flags.js";

/**
 * `chainsim visor --home DIR -- <start args>`: supervises `chainsim start` (devnet/visor.ts). The node is this same
 * program run again (`process.execPath`, its exec args and script), so a bundled or tsx-run chainsim supervises
 * itself. `--home` is passed on to the node unless the start args carry one.
 */
export const visorCommand: DevnetCommand = {
  path: [],
  summary: "Supervise a devnet node like cosmovisor: restart it with the upgrade's binary when it halts for an upgrade",
  usage: "visor --home DIR -- --binary NAME [start flags...]",
  spec: { args: { exact: 0 }, flags: [{ name: "home", kind: "string" }] },
  run: async (p, io) => {
    const home = resolve(flagString(p, "home", defaultHome()));
    const args = p.rest.some((a) => a === "--home" || a.startsWith("--home="))
      ? [...p.rest]
      : [...p.rest, "--home", home];
    const ac = new AbortController();
    const stop = () => ac.abort();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    try {
      return await runVisor({
        home,
        args,
        env: process.env,
        launch: (a) =>
          spawn(process.execPath, [...process.execArgv, process.argv[1]!, "start", ...a], { stdio: "inherit" }),
        out: io.out,
        err: io.err,
        signal: ac.signal,
      });
    } finally {
      process.removeListener("SIGINT", stop);
      process.removeListener("SIGTERM", stop);
    }
  },
};

export function registerDevnetVisor(program: Command, io: Io, setExit: (code: number) => void): void {
  registerGroup(program, "visor", [], visorCommand.summary, [visorCommand], io, setExit);
}
