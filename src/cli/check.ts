import { availableParallelism } from "node:os";
import type { Command } from "commander";
import { registerAll } from "./all.js";
import { CHECK_DEFAULT_RUNS, type CheckFlags, parseCheckFlags, prepareOutputDirs } from "./check-options.js";
import { campaignFlags, drawSeed, executeCheck, nodeCheckEnv } from "./check-run.js";

const collect = (v: string, prev: string[] | undefined): string[] => [...(prev ?? []), v];

/** Registers `chainsim check` and `chainsim all` (the campaign plus the scenario replay, run by `npm start`). */
export function registerCheck(
  program: Command,
  io: { out: (s: string) => void; err: (s: string) => void },
  setExit: (c: number) => void,
): void {
  const cmd = program
    .command("check")
    .description(
      "check the properties against the real chain with generated command sequences (exit 0 passed, 1 a property failed, 2 bad flags, 3 harness crash)",
    )
    .option("--property <name>", "check only this property (repeatable)", collect)
    .option(
      "--bail",
      "stop at the first failing run without shrinking it, and skip the generation statistics (a verdict for mutation testing)",
    )
    .option("--no-page", "write summary.json and junit.xml but not the HTML page (chainsim report draws it later)");
  campaignFlags(cmd, { runs: CHECK_DEFAULT_RUNS }).action(async (flags: CheckFlags) => {
    const config = parseCheckFlags(flags, { drawSeed, cores: availableParallelism() });
    prepareOutputDirs(config);
    setExit((await executeCheck(config, nodeCheckEnv(io))).exitCode);
  });
  registerAll(program, io, setExit);
}
