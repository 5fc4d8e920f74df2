/**
 * Writing a file whole or not at all, for the commands that write where a reader may look (a profile, an
 * exploration, a chart): the text goes to a temporary file in the target's directory (so the rename stays on one file
 * system), which is then renamed over the target. POSIX `rename` replaces the target in one step, so a reader sees
 * the old file or the new one, never a part; a failed write removes its temporary file and leaves the target as it
 * was. An I/O edge (src/node): the CLI, the server and the devnet may use it, the deterministic core never.
 *
 * Contract: throws the node:fs error of the step that failed (the write of the temporary file, or the rename), after
 * removing the temporary file. The temporary name is `.<name>.<pid>.tmp` beside the target, created exclusively.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export interface AtomicWriteOptions {
  /** The file's permission bits (e.g. 0o600); the process's default when absent. */
  readonly mode?: number;
  /** Creates the target's directory (and its parents) first. */
  readonly makeDir?: boolean;
}

/** The temporary file a write of `path` goes through. */
export const temporaryPathOf = (path: string): string => join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);

/**
 * Writes `text` to `path` atomically (the file header). `write` is node:fs `writeFileSync`, injectable so a test can
 * fail a write part-way.
 */
export function writeFileAtomic(
  path: string,
  text: string,
  o: AtomicWriteOptions = {},
  write: typeof writeFileSync = writeFileSync,
): void {
  if (o.makeDir === true) mkdirSync(dirname(path), { recursive: true });
  const tmp = temporaryPathOf(path);
  try {
    write(tmp, text, { flag: "wx", ...(o.mode === undefined ? {} : { mode: o.mode }) });
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
