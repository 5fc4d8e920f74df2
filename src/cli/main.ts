import { Command, CommanderError } from "commander";

/** Exit codes shared by every subcommand. */
export const ExitCode = {
  ok: 0,
  /** An expectation or property failed. */
  failed: 1,
  /** Bad input: a file, flag or argument is invalid. Nothing ran. */
  usage: 2,
  /** The harness itself crashed (a bug in chainsim). */
  internal: 3,
} as const;

export function buildProgram(): Command {
  const program = new Command("chainsim")
    .description(
      "Deterministic simulator and property-testing harness for coordinated software upgrades of a chain built like the Cosmos SDK.",
    )
    .version("0.1.0")
    .showHelpAfterError()
    .exitOverride();
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv], { from: "user" });
    return ExitCode.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version exit with code 0 through exitOverride.
      return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (e instanceof UserError) {
      process.stderr.write(`Error: ${e.message}\n`);
      return ExitCode.usage;
    }
    process.stderr.write(`chainsim: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return ExitCode.internal;
  }
}

/** An error caused by the user's input; shown as one line, never with a stack trace. */
export class UserError extends Error {}
