import { readFileSync, statSync } from "node:fs";
import { md5, sha1 } from "@noble/hashes/legacy.js";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { toHex } from "../core/bytes.js";
import { err, ok, type Result } from "../core/errors.js";
import { checksumParam, type Resolver } from "./plan-info.js";

/**
 * The live node CLI's resolver (docs/node-api.md §6.3): `file://` from the host file system and `http(s)://` over the
 * network with a timeout; any other scheme is a download error. A `checksum=<type>:<hex>` query parameter (sha256,
 * sha512, sha1, md5; a bare hex digest is typed by its length, as go-getter does) is removed from the URL before the
 * request and verified on the content; a mismatch is a download error. Failure reasons follow Go's texts where the
 * reference's are well known (`bad response code: 404`, `dial tcp 127.0.0.1:9: connect: connection refused`).
 */
const HASHES: Record<string, (b: Uint8Array) => Uint8Array> = { sha256, sha512, sha1, md5 };
const BY_LENGTH: Record<number, string> = { 32: "md5", 40: "sha1", 64: "sha256", 128: "sha512" };

function stripChecksum(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const hash = url.indexOf("#", q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  const kept = query.split("&").filter((p) => p.split("=")[0] !== "checksum");
  return url.slice(0, q) + (kept.length > 0 ? `?${kept.join("&")}` : "") + (hash < 0 ? "" : url.slice(hash));
}

function verifyChecksum(spec: string, data: Uint8Array): Result<void, string> {
  const colon = spec.indexOf(":");
  const type = colon < 0 ? BY_LENGTH[spec.length] : spec.slice(0, colon);
  const expected = (colon < 0 ? spec : spec.slice(colon + 1)).toLowerCase();
  const hash = type === undefined ? undefined : HASHES[type];
  if (hash === undefined) return err(`unsupported checksum type: ${type ?? spec}`);
  const got = toHex(hash(data));
  return got === expected ? ok(undefined) : err(`checksums did not match: expected ${expected}, got ${got}`);
}

function networkReason(url: string, e: unknown): string {
  const cause = (e as { cause?: { code?: string; address?: string; port?: number; hostname?: string } }).cause;
  const name = (e as { name?: string }).name;
  if (name === "TimeoutError" || name === "AbortError")
    return `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`;
  if (cause?.code === "ECONNREFUSED")
    return `Get "${url}": dial tcp ${cause.address}:${cause.port}: connect: connection refused`;
  if (cause?.code === "ENOTFOUND") return `Get "${url}": dial tcp: lookup ${cause.hostname}: no such host`;
  return `Get "${url}": ${cause instanceof Error ? cause.message : e instanceof Error ? e.message : String(e)}`;
}

async function fetchRaw(url: string, timeoutMs: number): Promise<Result<Uint8Array, string>> {
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  const scheme = m?.[1]?.toLowerCase() ?? "";
  if (scheme === "file") {
    let path: string;
    try {
      path = decodeURIComponent(new URL(url).pathname);
    } catch {
      return err(`invalid file URL ${url}`);
    }
    try {
      if (!statSync(path).isFile()) return err("source path must be a file");
      return ok(new Uint8Array(readFileSync(path)));
    } catch (e) {
      const code = (e as { code?: string }).code;
      return err(code === "ENOENT" ? `stat ${path}: no such file or directory` : String(e));
    }
  }
  if (scheme === "http" || scheme === "https") {
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
      if (res.status < 200 || res.status > 299) {
        await res.body?.cancel();
        return err(`bad response code: ${res.status}`);
      }
      return ok(new Uint8Array(await res.arrayBuffer()));
    } catch (e) {
      return err(networkReason(url, e));
    }
  }
  return err(`download not supported for scheme '${scheme}'`);
}

export function hostResolver(timeoutMs = 10_000): Resolver {
  return {
    async fetch(url) {
      const got = await fetchRaw(stripChecksum(url), timeoutMs);
      if (!got.ok) return got;
      const sum = checksumParam(url);
      if (sum !== "") {
        const v = verifyChecksum(sum, got.value);
        if (!v.ok) return v;
      }
      return got;
    },
  };
}
