import { err, ok, type Result } from "./errors.js";

/**
 * The injected file system. The deterministic core reaches files only through this interface; the host
 * implementation lives at the edge (src/node/host-fs.ts). Error texts follow Go's `*PathError` rendering
 * (`open <path>: permission denied`) so that messages built from them match the reference.
 */
export interface FsError {
  readonly code: "ENOENT" | "EACCES" | "EISDIR" | "ENOTDIR" | "EIO" | "ENOSPC";
  /** Go-style text, e.g. `open /home/data/upgrade-info.json: permission denied`. */
  readonly message: string;
}

export interface FileSystem {
  readFile(path: string): Result<string, FsError>;
  /** Creates or truncates the file with `mode` (e.g. 0o600). */
  writeFile(path: string, data: string, mode: number): Result<void, FsError>;
  /** `os.MkdirAll`: creates the directory and its parents; succeeds when it exists. */
  mkdirAll(path: string, mode: number): Result<void, FsError>;
  exists(path: string): boolean;
}

const goErrText: Record<FsError["code"], string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EISDIR: "is a directory",
  ENOTDIR: "not a directory",
  EIO: "input/output error",
  ENOSPC: "no space left on device",
};

export const fsError = (code: FsError["code"], op: string, path: string): FsError => ({
  code,
  message: `${op} ${path}: ${goErrText[code]}`,
});

/** `path` is `dir` or below it. */
const below = (path: string, dir: string): boolean =>
  path === dir || path.startsWith(dir.endsWith("/") ? dir : `${dir}/`);

const parentOf = (path: string): string => {
  const i = path.lastIndexOf("/");
  return i <= 0 ? "/" : path.slice(0, i);
};

/** A MemoryFs as plain data. */
export interface MemoryFsSnapshot {
  readonly files: ReadonlyMap<string, { readonly data: string; readonly mode: number }>;
  readonly dirs: readonly string[];
  readonly readOnly: readonly string[];
  readonly writeLimits: readonly (readonly [string, number])[];
}

/**
 * An in-memory file system for simulated nodes. `readOnly` directories reject writes below them with EACCES,
 * which is how scenarios make `upgrade-info.json` unwritable. A directory with a write limit is a disk that fills up
 * in the middle of a write: a file written below it keeps only its first `bytes` characters (the file is created or
 * truncated first, as `os.WriteFile` does), and the write fails with ENOSPC.
 */
export class MemoryFs implements FileSystem {
  readonly #files = new Map<string, { data: string; mode: number }>();
  readonly #dirs = new Set<string>(["/"]);
  readonly #readOnly = new Set<string>();
  readonly #writeLimits = new Map<string, number>();

  setReadOnly(dir: string, readOnly: boolean): void {
    if (readOnly) this.#readOnly.add(dir);
    else this.#readOnly.delete(dir);
  }

  /** Writes below `dir` stop after `bytes` characters and fail (a full disk); undefined lifts the limit. */
  setWriteLimit(dir: string, bytes: number | undefined): void {
    if (bytes === undefined) this.#writeLimits.delete(dir);
    else this.#writeLimits.set(dir, bytes);
  }

  #denied(path: string): boolean {
    for (const d of this.#readOnly) if (below(path, d)) return true;
    return false;
  }

  #limit(path: string): number | undefined {
    for (const [d, bytes] of this.#writeLimits) if (below(path, d)) return bytes;
    return undefined;
  }

  readFile(path: string): Result<string, FsError> {
    if (this.#dirs.has(path)) return err(fsError("EISDIR", "read", path));
    const f = this.#files.get(path);
    return f === undefined ? err(fsError("ENOENT", "open", path)) : ok(f.data);
  }

  writeFile(path: string, data: string, mode: number): Result<void, FsError> {
    if (this.#dirs.has(path)) return err(fsError("EISDIR", "open", path));
    if (!this.#dirs.has(parentOf(path))) return err(fsError("ENOENT", "open", path));
    if (this.#denied(path)) return err(fsError("EACCES", "open", path));
    const prev = this.#files.get(path);
    const limit = this.#limit(path);
    const full = limit !== undefined && data.length > limit;
    this.#files.set(path, { data: full ? data.slice(0, limit) : data, mode: prev?.mode ?? mode });
    return full ? err(fsError("ENOSPC", "write", path)) : ok(undefined);
  }

  mkdirAll(path: string, _mode: number): Result<void, FsError> {
    const parts = path.split("/").filter((p) => p !== "");
    let cur = "";
    for (const p of parts) {
      cur += `/${p}`;
      if (this.#files.has(cur)) return err(fsError("ENOTDIR", "mkdir", cur));
      if (!this.#dirs.has(cur)) {
        if (this.#denied(cur)) return err(fsError("EACCES", "mkdir", cur));
        this.#dirs.add(cur);
      }
    }
    return ok(undefined);
  }

  exists(path: string): boolean {
    return this.#files.has(path) || this.#dirs.has(path);
  }

  /** `os.Remove` of a file; false when there is none. */
  removeFile(path: string): boolean {
    return this.#files.delete(path);
  }

  /** The file system as plain data, independent of later changes. */
  snapshot(): MemoryFsSnapshot {
    return {
      files: new Map([...this.#files].map(([k, v]) => [k, { ...v }])),
      dirs: [...this.#dirs],
      readOnly: [...this.#readOnly],
      writeLimits: [...this.#writeLimits],
    };
  }

  static fromSnapshot(snap: MemoryFsSnapshot): MemoryFs {
    const fs = new MemoryFs();
    for (const [k, v] of snap.files) fs.#files.set(k, { ...v });
    for (const d of snap.dirs) fs.#dirs.add(d);
    for (const d of snap.readOnly) fs.#readOnly.add(d);
    for (const [d, bytes] of snap.writeLimits ?? []) fs.#writeLimits.set(d, bytes);
    return fs;
  }

  /** Deep copy (for cheap simulation snapshots). */
  clone(): MemoryFs {
    const c = new MemoryFs();
    for (const [k, v] of this.#files) c.#files.set(k, { ...v });
    for (const d of this.#dirs) c.#dirs.add(d);
    for (const d of this.#readOnly) c.#readOnly.add(d);
    for (const [d, bytes] of this.#writeLimits) c.#writeLimits.set(d, bytes);
    return c;
  }
}
