import { gunzipSync } from "node:zlib";
import { err, ok, type Result } from "../core/errors.js";

/**
 * The archive side of the reference downloader (go-getter): a URL whose path ends in an archive extension is
 * unpacked, and the upgrade needs `bin/<daemon>` or `<daemon>` among its regular files. Supported here: `.tar`,
 * `.tar.gz`/`.tgz` and `.zip`; only the entry names are read (nothing is written to disk).
 */
const ARCHIVE = /\.(tar|tar\.gz|tgz|zip)$/i;

const urlPath = (url: string): string => url.split("#")[0]!.split("?")[0]!;

export const isArchiveUrl = (url: string): boolean => ARCHIVE.test(urlPath(url));

/** Names of the regular files in the archive `url` names (by its extension). */
export function archiveEntries(url: string, bytes: Uint8Array): Result<string[], string> {
  const path = urlPath(url).toLowerCase();
  try {
    if (path.endsWith(".zip")) return zipEntries(bytes);
    const tar = path.endsWith(".tar") ? bytes : new Uint8Array(gunzipSync(bytes));
    return tarEntries(tar);
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
}

const cString = (b: Uint8Array, from: number, len: number): string => {
  let end = from;
  while (end < from + len && b[end] !== 0) end++;
  return new TextDecoder().decode(b.subarray(from, end));
};

/** POSIX ustar / GNU tar: 512-byte headers, octal sizes, regular files have type '0' or NUL. */
function tarEntries(b: Uint8Array): Result<string[], string> {
  const out: string[] = [];
  let off = 0;
  while (off + 512 <= b.length) {
    if (b.subarray(off, off + 512).every((x) => x === 0)) break;
    const name = cString(b, off, 100);
    const size = Number.parseInt(cString(b, off + 124, 12).trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0) return err("archive/tar: invalid tar header");
    const type = b[off + 156];
    const prefix = new TextDecoder().decode(b.subarray(off + 257, off + 263)).startsWith("ustar")
      ? cString(b, off + 345, 155)
      : "";
    if (type === 0x30 || type === 0) out.push(prefix === "" ? name : `${prefix}/${name}`);
    off += 512 + Math.ceil(size / 512) * 512;
  }
  if (off === 0 && b.length > 0) return err("archive/tar: invalid tar header");
  return ok(out);
}

/** Zip central directory: the end record (signature 0x06054b50) points at the file headers (0x02014b50). */
function zipEntries(b: Uint8Array): Result<string[], string> {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let eocd = -1;
  for (let i = b.length - 22; i >= Math.max(0, b.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return err("zip: not a valid zip file");
  const count = view.getUint16(eocd + 10, true);
  let off = view.getUint32(eocd + 16, true);
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    if (off + 46 > b.length || view.getUint32(off, true) !== 0x02014b50) return err("zip: not a valid zip file");
    const nameLen = view.getUint16(off + 28, true);
    const extraLen = view.getUint16(off + 30, true);
    const commentLen = view.getUint16(off + 32, true);
    const name = new TextDecoder().decode(b.subarray(off + 46, off + 46 + nameLen));
    if (!name.endsWith("/")) out.push(name);
    off += 46 + nameLen + extraLen + commentLen;
  }
  return ok(out);
}
