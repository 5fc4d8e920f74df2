import { Command, CommanderError } from "commander";
import { quote } from "../core/go/strconv.js";
import { registerCheck } from "./check.js";
import { registerDevnetInit } from "./devnet-init.js";
import { registerDevnetKeys } from "./devnet-keys.js";
import { registerDevnetStart } from "./devnet-start.js";
import { registerDevnetTx } from "./devnet-tx.js";
import { registerDevnetVisor } from "./devnet-visor.js";
import { ExitCode, UserError } from "./exit.js";
import { registerExplore } from "./explore.js";
import { registerUpgradeHeight } from "./explore-height.js";
import { registerImport } from "./import.js";
import { registerPreflight } from "./preflight.js";
import { queryMain } from "./query.js";
import { registerReport } from "./report.js";
import { registerRun } from "./run.js";
import { registerServe } from "./serve.js";
import { oneLineUsageErrors } from "./usage-hint.js";

export { ExitCode, UserError };

/** Control characters that reach a terminal: C0 but tab and newline, DEL, C1. */
const isControl = (c: number): boolean => (c < 0x20 && c !== 0x09 && c !== 0x0a) || (c >= 0x7f && c <= 0x9f);

/**
 * A line for the terminal with every raw control character escaped as Go's %q writes it (`\x1b`, `\r`,
 * `\u0085`): a file name or value carrying `ESC[1;31m` never recolours the terminal.
 */
export const escapeControls = (s: string): string =>
  [...s].map((ch) => (isControl(ch.codePointAt(0)!) ? quote(ch).slice(1, -1) : ch)).join("");

/** Exit status after the reader of stdout went away (`chainsim run | head`): 128 + SIGPIPE, as a shell reports it. */
export const EXIT_CLOSED_PIPE = 141;

let pipeGuarded = false;
/** A closed stdout or stderr pipe ends the process quietly with EXIT_CLOSED_PIPE instead of an EPIPE stack. */
function guardClosedPipes(): void {
  if (pipeGuarded) return;
  pipeGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE" || e.code === "ERR_STREAM_DESTROYED") process.exit(EXIT_CLOSED_PIPE);
      throw e;
    });
  }
}

const io = {
  out: (s: string) => process.stdout.write(`${s}\n`),
  err: (s: string) => process.stderr.write(`${escapeControls(s)}\n`),
};

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command("chainsim")
    .description(
      "Deterministic simulator and property-testing harness for coordinated software upgrades of a chain built like the Cosmos SDK.",
    )
    .version("0.1.0")
    .exitOverride();
  registerRun(program, io, setExit);
  registerCheck(program, io, setExit);
  registerUpgradeHeight(registerExplore(program, io, setExit), io, setExit);
  registerPreflight(program, io, setExit);
  registerReport(program, io, setExit);
  registerServe(program, io, setExit);
  registerImport(program, io, setExit);
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
  oneLineUsageErrors(program);
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  guardClosedPipes();
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
