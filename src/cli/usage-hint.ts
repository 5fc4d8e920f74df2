import type { Command } from "commander";

/** The simulator commands (docs/commands.md): a bad flag or argument is one line with a hint, exit 2. */
const SIMULATOR_COMMANDS: ReadonlySet<string> = new Set(["run", "check", "all", "explore", "serve", "report"]);

/**
 * Makes every simulator command (and the program itself, for an unknown command) answer a usage error with one
 * line: commander's message and where to read more, `error: unknown option '--x'; see 'chainsim check --help'`,
 * instead of the whole usage. Node-style commands keep their cobra texts (`Error: unknown flag: --x`).
 */
export function oneLineUsageErrors(program: Command): void {
  hint(program, program.name());
  for (const c of program.commands) if (SIMULATOR_COMMANDS.has(c.name())) walk(c, `${program.name()} ${c.name()}`);
}

/** The command and its subcommands, at most a few levels deep (explore cancel-window). */
function walk(c: Command, path: string, depth = 0): void {
  hint(c, path);
  if (depth < 4) for (const sub of c.commands) walk(sub, `${path} ${sub.name()}`, depth + 1);
}

function hint(c: Command, path: string): void {
  c.showHelpAfterError(false);
  c.configureOutput({ outputError: (text, write) => write(`${text.trimEnd()}; see '${path} --help'\n`) });
}
