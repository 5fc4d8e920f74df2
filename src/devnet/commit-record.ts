import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { toHex, utf8 } from "../core/bytes.js";

/**
 * The node's own record of its last committed block, kept beside the database and independent of what LevelDB
 * recovers: `data/commit-record` holds one line `<height> <app hash hex> <sha256 of "<height> <app hash>">`.
 *
 * Contract:
 * - Written after each flush of the database (so it never names a height the database does not have), atomically
 *   (a temporary file, fsynced, renamed over the record, the directory fsynced): a crash leaves the old or the new
 *   record, never a mix. The database may therefore be at most one flush ahead of the record.
 * - Read at start and compared with the recovered state: the same height and app hash, or the database exactly
 *   one flush ahead (a crash between the two writes), is consistent; anything else means the database lost or
 *   changed committed blocks and the node must refuse to start (see `checkRecovered`).
 * - A record that fails its checksum, or is missing while the database has blocks, is a refusal too: nothing can
 *   vouch for the recovered height.
 */
export const COMMIT_RECORD_FILE = "commit-record";

export interface CommitRecord {
  readonly height: number;
  /** Lower-case hex. */
  readonly appHash: string;
}

const digest = (height: number, appHash: string): string => toHex(sha256(utf8(`${height} ${appHash}`)));

export const encodeCommitRecord = (r: CommitRecord): string =>
  `${r.height} ${r.appHash} ${digest(r.height, r.appHash)}\n`;

/** The record in `text`; an error names what is wrong with it. */
export function decodeCommitRecord(text: string): { ok: true; value: CommitRecord } | { ok: false; error: string } {
  const m = /^(\d{1,15}) ([0-9a-f]*) ([0-9a-f]{64})\n$/.exec(text);
  if (m === null) return { ok: false, error: "malformed" };
  const height = Number(m[1]);
  const appHash = m[2]!;
  if (digest(height, appHash) !== m[3]) return { ok: false, error: "checksum mismatch" };
  return { ok: true, value: { height, appHash } };
}

/** Writes the record atomically and durably (see the contract). */
export function writeCommitRecord(path: string, r: CommitRecord): void {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w", 0o644);
  try {
    writeSync(fd, encodeCommitRecord(r));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  const dir = openSync(dirname(path), "r");
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** The record at `path`: the record, `missing`, or an error text (unreadable, malformed, checksum). */
export function readCommitRecord(path: string): CommitRecord | "missing" | { readonly error: string } {
  let text: string;
  try {
    text = readFileSync(path, "latin1");
  } catch (e) {
    if ((e as { code?: unknown }).code === "ENOENT") return "missing";
    return { error: e instanceof Error ? e.message : String(e) };
  }
  const r = decodeCommitRecord(text);
  return r.ok ? r.value : { error: r.error };
}

/**
 * Compares what the database recovered (`height`, and the app hash at the record's height when retained) with the
 * record. Undefined when consistent; otherwise the one-line reason to refuse the start.
 */
export function checkRecovered(
  record: CommitRecord | "missing" | { readonly error: string },
  recoveredHeight: number,
  appHashAt: (height: number) => string | undefined,
  recordPath: string,
): string | undefined {
  if (record === "missing") {
    return recoveredHeight === 0
      ? undefined
      : `the database is at height ${recoveredHeight} but the commit record ${recordPath} is missing`;
  }
  if ("error" in record) return `the commit record ${recordPath} is damaged (${record.error})`;
  if (recoveredHeight < record.height) {
    return `the database recovered height ${recoveredHeight}, but blocks up to height ${record.height} were committed (${recordPath}): committed state was lost`;
  }
  if (recoveredHeight > record.height + 1 || (record.height === 0 && recoveredHeight > 1)) {
    return `the database is at height ${recoveredHeight}, ahead of the committed height ${record.height} (${recordPath})`;
  }
  if (record.height > 0) {
    const hash = appHashAt(record.height);
    if (hash !== undefined && hash !== record.appHash) {
      return `the database's app hash at height ${record.height} is ${hash.toUpperCase()}, but ${record.appHash.toUpperCase()} was committed (${recordPath})`;
    }
  }
  return undefined;
}
