import { Command, CommanderError } from "commander";
import { registerCheck } from "./check.js";
import { registerDevnetInit } from "./devnet-init.js";
import { registerDevnetKeys } from "./devnet-keys.js";
import { registerDevnetStart } from "./devnet-start.js";
import { registerDevnetTx } from "./devnet-tx.js";
import { registerDevnetVisor } from "./devnet-visor.js";
import { ExitCode, UserError } from "./exit.js";
import { registerExplore } from "./explore.js";
import { queryMain } from "./query.js";
import { registerReport } from "./report.js";
import { registerRun } from "./run.js";
import { registerServe } from "./serve.js";

export { ExitCode, UserError };

const io = {
  out: (s: string) => process.stdout.write(`${s}\n`),
  err: (s: string) => process.stderr.write(`${s}\n`),
};

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command("chainsim")
    .description(
      "Deterministic simulator and property-testing harness for coordinated software upgrades of a chain built like the Cosmos SDK.",
    )
    .version("0.1.0")
    .showHelpAfterError()
    .exitOverride();
  registerRun(program, io, setExit);
  registerCheck(program, io, setExit);
  registerExplore(program, io, setExit);
  registerReport(program, io, setExit);
  registerServe(program, io, setExit);
  registerDevnetInit(program, io, setExit);
  registerDevnetStart(program, io, setExit);
  registerDevnetTx(program, io, setExit);
  registerDevnetKeys(program, io, setExit);
  registerDevnetVisor(program, io, setExit);
  // Node-style query commands parse their own flags with cobra's texts (main() routes `query`/`q` there directly).
  program
    .command("query")
    .alias("q")
    .description("query a node served by `chainsim serve` (upgrade plan | applied <name> | module_versions [module])")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[args...]")
    .action(async (args: string[]) => setExit(await queryMain(args, io)));
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "query" || argv[0] === "q") return queryMain(argv.slice(1), io);
  let code: number = ExitCode.ok;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    if (e instanceof UserError) {
      io.err(`Error: ${e.message}`);
      return ExitCode.usage;
    }
    io.err(`chainsim: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return ExitCode.internal;
  }
}
