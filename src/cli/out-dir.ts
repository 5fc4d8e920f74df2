import { mkdirSync } from "node:fs";
import { reason } from "./files.js";

/**
 * Creates the output folder `dir` that `flag` names (and its parents). Returns the one-line error naming the flag
 * and the path when it cannot: a path component is a file, permission denied.
 */
export function ensureDir(flag: string, dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true });
    return undefined;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const why = code === "EEXIST" || code === "ENOTDIR" ? "not a directory" : reason(e);
    return `${flag} ${dir}: ${why}`;
  }
}
