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

/** An error caused by the user's input; shown as one line, never with a stack trace. */
export class UserError extends Error {}
