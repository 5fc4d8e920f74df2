import { gunzipSync } from "node:zlib";
import tarStream from "tar-stream";
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
export async function archiveEntries(url: string, bytes: Uint8Array): Promise<Result<string[], string>> {
  const path = urlPath(url).toLowerCase();
  try {
    if (path.endsWith(".zip")) return zipEntries(bytes);
    const tar = path.endsWith(".tar") ? bytes : new Uint8Array(gunzipSync(bytes));
    return await tarEntries(tar);
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
}

/**
 * Regular files of a tar archive, read by tar-stream: ustar and GNU headers, with the long names of GNU `L`
 * records and PAX `path` records (names over 100 bytes), as Go's archive/tar reads them.
 */
async function tarEntries(b: Uint8Array): Promise<Result<string[], string>> {
  const out: string[] = [];
  const extract = tarStream.extract();
  const done = (async () => {
    for await (const entry of extract) {
      if (entry.header.type === "file") out.push(entry.header.name);
      entry.resume();
    }
  })();
  extract.end(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  try {
    await done;
  } catch (e) {
    return err(`archive/tar: ${e instanceof Error ? e.message : String(e)}`);
  }
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
