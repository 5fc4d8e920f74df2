import assert from "node:assert/strict";
import { Command, CommanderError, Help } from "commander";
import { quote } from "../core/go/strconv.js";
import { addStubs, type CliIo, COMMANDS, type CommandEntry, StubReached, stubEntry, stubListing } from "./commands.js";
import { ExitCode, UserError } from "./exit.js";
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

const io: CliIo = {
  out: (s: string) => process.stdout.write(`${s}\n`),
  err: (s: string) => process.stderr.write(`${escapeControls(s)}\n`),
};

/** `chainsim query …` and `chainsim q …`: cobra-style flags, loaded on use. */
const queryMain = async (args: readonly string[]): Promise<number> => (await import("./query.js")).queryMain(args, io);

/** A stub's own line in the program's help, so that stubs list exactly as the real commands do. */
class StubAwareHelp extends Help {
  override subcommandTerm(cmd: Command): string {
    return stubListing(cmd)?.term ?? super.subcommandTerm(cmd);
  }
}

/**
 * The program: the commands of `loaded` (every command when undefined) with their real definitions, the others as
 * stubs (commands.ts) that throw StubReached when the parse reaches them.
 */
export async function buildProgram(
  setExit: (code: number) => void,
  loaded?: ReadonlySet<CommandEntry>,
): Promise<Command> {
  const wanted = COMMANDS.filter((e) => loaded === undefined || loaded.has(e));
  const registers = new Map(await Promise.all(wanted.map(async (e) => [e, await e.load()] as const)));
  const program = new Command("chainsim")
    .description(
      "Deterministic simulator and property-testing harness for coordinated software upgrades of a chain built like the Cosmos SDK.",
    )
    .version("0.1.0")
    .exitOverride();
  program.createHelp = () => Object.assign(new StubAwareHelp(), program.configureHelp());
  for (const entry of COMMANDS) {
    const register = registers.get(entry);
    if (register === undefined) addStubs(program, entry);
    else register(program, io, setExit);
  }
  // Node-style query commands parse their own flags with cobra's texts (main() routes `query`/`q` there directly).
  program
    .command("query")
    .alias("q")
    .description("query a node served by `chainsim serve` (upgrade plan | applied <name> | module_versions [module])")
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments()
    .argument("[args...]")
    .action(async (args: string[]) => setExit(await queryMain(args)));
  program.hook("preSubcommand", (_program, sub) => {
    const entry = stubEntry(sub);
    if (entry !== undefined) throw new StubReached(entry);
  });
  oneLineUsageErrors(program);
  return program;
}

/**
 * Runs the CLI on `argv` and answers its exit code. Starts with every command a stub; when the parse reaches one, it
 * loads that command and parses again (at most once per command), before anything was written.
 */
export async function main(argv: readonly string[]): Promise<number> {
  guardClosedPipes();
  if (argv[0] === "query" || argv[0] === "q") return queryMain(argv.slice(1));
  const loaded = new Set<CommandEntry>();
  for (let attempt = 0; attempt <= COMMANDS.length; attempt++) {
    const outcome = await parse(argv, loaded);
    if (!(outcome instanceof StubReached)) return outcome;
    assert(!loaded.has(outcome.entry), "a loaded command is never a stub");
    loaded.add(outcome.entry);
  }
  assert.fail("every command loaded and still a stub reached");
}

/** One parse of `argv` with the commands of `loaded`: the exit code, or the stub it reached. */
async function parse(argv: readonly string[], loaded: ReadonlySet<CommandEntry>): Promise<number | StubReached> {
  let code: number = ExitCode.ok;
  const program = await buildProgram((c) => {
    code = c;
  }, loaded);
  try {
    await program.parseAsync([...argv], { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof StubReached) return e;
    if (e instanceof CommanderError) return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    if (e instanceof UserError) {
      io.err(`Error: ${e.message}`);
      return ExitCode.usage;
    }
    io.err(`chainsim: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return ExitCode.internal;
  }
}
