import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { err, ok, type Result } from "../core/errors.js";
import { type FileSystem, type FsError, fsError } from "../core/fs.js";

const CODES: ReadonlySet<string> = new Set(["ENOENT", "EACCES", "EISDIR", "ENOTDIR"]);

/** Maps a node:fs error to the Go-style FsError (`<op> <path>: <reason>`); unknown causes read as EIO. */
function toFsError(e: unknown, op: string, path: string): FsError {
  const code = (e as { code?: unknown } | undefined)?.code;
  const c = typeof code === "string" && CODES.has(code) ? (code as FsError["code"]) : "EIO";
  // EPERM is what some systems report for a denied write; Go reports it as permission denied too.
  return fsError(code === "EPERM" ? "EACCES" : c, op, path);
}

/**
 * The host file system behind `FileSystem` (the edge implementation core/fs.ts names): synchronous node:fs calls,
 * Go `os` semantics. `writeFile` creates the file with `mode` (before the umask, as Go's os.WriteFile) or truncates
 * an existing one keeping its mode; `mkdirAll` succeeds when the directory exists. Nothing throws.
 */
export class HostFs implements FileSystem {
  readFile(path: string): Result<string, FsError> {
    try {
      return ok(readFileSync(path, "utf8"));
    } catch (e) {
      return err(toFsError(e, (e as { code?: string }).code === "EISDIR" ? "read" : "open", path));
    }
  }

  writeFile(path: string, data: string, mode: number): Result<void, FsError> {
    try {
      writeFileSync(path, data, { mode });
      return ok(undefined);
    } catch (e) {
      return err(toFsError(e, "open", path));
    }
  }

  mkdirAll(path: string, mode: number): Result<void, FsError> {
    try {
      mkdirSync(path, { recursive: true, mode });
      return ok(undefined);
    } catch (e) {
      return err(toFsError(e, "mkdir", path));
    }
  }

  exists(path: string): boolean {
    return existsSync(path);
  }
}
