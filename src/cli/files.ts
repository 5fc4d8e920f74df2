import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from "node:fs";
import { join } from "node:path";
import { err, ok, type Result } from "../core/errors.js";

const SCENARIO_EXT = /\.(ya?ml|json)$/i;
/** Files in scenario folders that are not scenarios. */
const NOT_SCENARIOS = new Set(["schema.json"]);
/** A scenario file is a few KiB; anything larger than this is refused before it is read. */
export const SCENARIO_BYTES_MAX = 8 << 20;
/** Directory nesting followed below each argument (symlinked directories included). */
const WALK_DEPTH_MAX = 64;

/** A file system error as the short reason of a one-line message (no errno prefix, no stack). */
export const reason = (e: unknown): string => {
  const code = (e as { code?: unknown }).code;
  if (code === "ENOENT") return "no such file or directory";
  if (code === "ENOTDIR") return "not a directory";
  if (code === "EISDIR") return "is a directory";
  if (code === "EEXIST") return "file exists";
  if (code === "ELOOP") return "too many levels of symbolic links";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return e instanceof Error ? e.message : String(e);
};

/**
 * Expands files and directories (recursively, sorted) into scenario file paths. Nothing throws: a missing path, a
 * dangling symlink or a symlink loop is reported as an error line `<path>: <reason>`.
 * - Symlinks are followed; a directory reached twice (a loop, or two links to one folder) is walked once, and the
 *   walk stops `WALK_DEPTH_MAX` levels down.
 * - Inside a directory only regular files with a scenario extension are taken; a FIFO, socket or device named
 *   `*.yaml` is reported (`not a regular file`), never opened. A file named explicitly must be a regular file too.
 */
export function collectScenarioFiles(args: readonly string[]): { files: string[]; errors: string[] } {
  const files: string[] = [];
  const errors: string[] = [];
  const walked = new Set<string>();
  const walk = (dir: string, depth: number) => {
    let real: string;
    let names: string[];
    try {
      real = realpathSync(dir);
      names = readdirSync(dir).sort();
    } catch (e) {
      errors.push(`${dir}: ${reason(e)}`);
      return;
    }
    if (walked.has(real)) return;
    walked.add(real);
    for (const name of names) {
      const p = join(dir, name);
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(p);
      } catch (e) {
        if (SCENARIO_EXT.test(name)) errors.push(`${p}: ${reason(e)}`);
        continue;
      }
      if (st.isDirectory()) {
        if (depth >= WALK_DEPTH_MAX) errors.push(`${p}: directories nested deeper than ${WALK_DEPTH_MAX} levels`);
        else walk(p, depth + 1);
      } else if (SCENARIO_EXT.test(name) && !NOT_SCENARIOS.has(name)) {
        if (st.isFile()) files.push(p);
        else errors.push(`${p}: not a regular file`);
      }
    }
  };
  for (const a of args) {
    let st: ReturnType<typeof statSync> | undefined;
    try {
      st = statSync(a);
    } catch (e) {
      errors.push(`${a}: ${reason(e)}`);
      continue;
    }
    if (st.isDirectory()) walk(a, 0);
    else if (st.isFile()) files.push(a);
    else errors.push(`${a}: not a regular file`);
  }
  return { files, errors };
}

/**
 * Reads a scenario file as UTF-8. The file is opened without blocking (a FIFO never hangs the reader), must be a
 * regular file, and at most `SCENARIO_BYTES_MAX` bytes; every failure is one line `<path>: <reason>`.
 */
export function readText(path: string): { ok: true; text: string } | { ok: false; error: string } {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, error: `${path}: not a regular file` };
    if (st.size > SCENARIO_BYTES_MAX)
      return { ok: false, error: `${path}: file is ${st.size} bytes, larger than the limit of ${SCENARIO_BYTES_MAX}` };
    const buf = Buffer.alloc(st.size);
    let n = 0;
    while (n < buf.length) {
      const r = readSync(fd, buf, n, buf.length - n, n);
      if (r === 0) break;
      n += r;
    }
    return { ok: true, text: buf.subarray(0, n).toString("utf8") };
  } catch (e) {
    return { ok: false, error: `${path}: ${reason(e)}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The file reader a scenario `from:` a profile is read with (scenario/from.ts): a profile is read like a scenario
 * file, and a failure is its reason alone (the loader names the path).
 */
export const readProfileText = (path: string): Result<string, string> => {
  const t = readText(path);
  if (t.ok) return ok(t.text);
  return err(t.error.startsWith(`${path}: `) ? t.error.slice(path.length + 2) : t.error);
};
