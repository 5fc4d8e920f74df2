import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { sha256 } from "@noble/hashes/sha2.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toHex, utf8 } from "../core/bytes.js";
import { err, ok } from "../core/errors.js";
import { archiveEntries } from "./archive.js";
import { hostResolver } from "./fetch.js";
import { type Resolver, validatePlanInfo } from "./plan-info.js";

/** A tar archive of regular files (ustar headers with their checksum). */
function tar(files: Record<string, string>): Uint8Array {
  const blocks: Uint8Array[] = [];
  for (const [name, body] of Object.entries(files)) {
    const h = new Uint8Array(512);
    h.set(utf8(name), 0);
    h.set(utf8("0000755\0"), 100);
    h.set(utf8(`${body.length.toString(8).padStart(11, "0")}\0`), 124);
    h[156] = 0x30;
    h.set(utf8("ustar\0"), 257);
    h.set(utf8("        "), 148);
    const sum = h.reduce((a, x) => a + x, 0);
    h.set(utf8(`${sum.toString(8).padStart(6, "0")}\0 `), 148);
    blocks.push(h);
    const data = new Uint8Array(Math.ceil(body.length / 512) * 512);
    data.set(utf8(body));
    blocks.push(data);
  }
  blocks.push(new Uint8Array(1024));
  return Uint8Array.from(blocks.flatMap((b) => [...b]));
}

/** A zip archive's central directory and end record (entry data is not needed to list names). */
function zip(names: string[]): Uint8Array {
  const parts: number[] = [];
  for (const n of names) {
    const h = new Uint8Array(46 + n.length);
    const v = new DataView(h.buffer);
    v.setUint32(0, 0x02014b50, true);
    v.setUint16(28, n.length, true);
    h.set(utf8(n), 46);
    parts.push(...h);
  }
  const end = new Uint8Array(22);
  const v = new DataView(end.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(10, names.length, true);
  v.setUint32(16, 0, true);
  return Uint8Array.from([...parts, ...end]);
}

const fake = (content: Record<string, string | Uint8Array>): Resolver => ({
  fetch: async (url) => {
    const c = content[url];
    if (c === undefined) return err(`bad response code: 404`);
    return ok(typeof c === "string" ? utf8(c) : c);
  },
});
const opts = (r: Resolver, enforceChecksum = false) => ({ enforceChecksum, daemonName: "chainsimd", resolver: r });
const check = async (info: string, r: Resolver = fake({}), enforce = false) => {
  const v = await validatePlanInfo(info, opts(r, enforce));
  return v.ok ? "ok" : v.error;
};

describe("upgrade-info validation (docs/node-api.md §6.3)", () => {
  it("rejects blank, unparsable and empty infos with the reference texts", async () => {
    expect(await check("  ")).toBe("plan info must not be blank");
    expect(await check("v2")).toBe("could not parse plan info: invalid character 'v' looking for beginning of value");
    expect(await check("{}")).toBe('no "binaries" entries found');
    expect(await check("null")).toBe('no "binaries" entries found');
    expect(await check("[]")).toBe(
      "could not parse plan info: json: cannot unmarshal array into Go value of type plan.Info",
    );
    expect(await check('{"binaries":5}')).toMatch(/cannot unmarshal number into Go struct field Info\.binaries/);
    expect(await check('{"binaries":{"any":1}}')).toMatch(
      /cannot unmarshal number into Go struct field Info\.binaries/,
    );
  });

  it("checks keys and URLs in ascending key order, keys matched case-insensitively", async () => {
    expect(await check('{"Binaries":{"linux":"http://x"}}')).toBe('invalid os/arch format in key "linux"');
    expect(await check('{"binaries":{"linux/amd64":"http://x/a","any":"http://x/b"}}', fake({}), true)).toBe(
      'invalid url "http://x/b" in binaries[any]: missing checksum query parameter',
    );
    expect(await check('{"binaries":{"any":":nope"}}')).toBe(
      'invalid url ":nope" in binaries[any]: parse ":nope": missing protocol scheme',
    );
  });

  it("fetches a URL info (checksum required unless disabled) and each binary", async () => {
    const doc = '{"binaries":{"linux/amd64":"http://h/bin"}}';
    const r = fake({ "http://h/info?checksum=x": doc, "http://h/info": doc, "http://h/bin": "ELF" });
    expect(await check("http://h/info", r, true)).toBe("missing checksum query parameter");
    expect(await check("http://h/info", r)).toBe("ok");
    expect(await check("http://h/none", r)).toBe('could not download url "http://h/none": bad response code: 404');
    expect(await check("http://h/empty", fake({ "http://h/empty": "  \n" }))).toBe(
      'no content returned by "http://h/empty"',
    );
    expect(await check('{"binaries":{"any":"http://h/missing"}}', r)).toBe(
      "error downloading binary for os/arch any: bad response code: 404",
    );
  });

  it("an archive must contain bin/<daemon> or <daemon>", async () => {
    const good = gzipSync(tar({ "bin/chainsimd": "ELF" }));
    const bad = gzipSync(tar({ README: "x" }));
    const r = fake({ "http://h/good.tar.gz": good, "http://h/bad.tgz": bad, "http://h/z.zip": zip(["chainsimd"]) });
    expect(await check('{"binaries":{"any":"http://h/good.tar.gz"}}', r)).toBe("ok");
    expect(await check('{"binaries":{"any":"http://h/z.zip"}}', r)).toBe("ok");
    expect(await check('{"binaries":{"any":"http://h/bad.tgz"}}', r)).toBe(
      'error downloading binary for os/arch any: url "http://h/bad.tgz" result does not contain a bin/chainsimd or chainsimd file',
    );
    expect(await archiveEntries("x.zip", zip(["a/", "a/b"]))).toEqual({ ok: true, value: ["a/b"] });
  });

  it("reads names over 100 bytes from GNU `L` and PAX `path` records (archives written by GNU tar)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainsim-tar-"));
    try {
      const daemon = `chainsimd-${"x".repeat(110)}`;
      mkdirSync(join(dir, "bin"));
      writeFileSync(join(dir, "bin", daemon), "ELF");
      for (const format of ["gnu", "pax"]) {
        const file = join(dir, `${format}.tar`);
        execFileSync("tar", [`--format=${format}`, "-cf", file, "-C", dir, `bin/${daemon}`]);
        const bytes = new Uint8Array(readFileSync(file));
        expect(await archiveEntries(file, bytes)).toEqual({ ok: true, value: [`bin/${daemon}`] });
        const r = fake({ "http://h/a.tar": bytes });
        const v = await validatePlanInfo('{"binaries":{"any":"http://h/a.tar"}}', {
          enforceChecksum: false,
          daemonName: daemon,
          resolver: r,
        });
        expect(v.ok).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("host resolver (loopback only)", () => {
  let server: http.Server;
  let base = "";
  let dir = "";
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "fetch-"));
    writeFileSync(join(dir, "info.json"), '{"binaries":{"any":"file://' + join(dir, "bin") + '"}}');
    writeFileSync(join(dir, "bin"), "ELF");
    server = http.createServer((req, res) => {
      if (req.url === "/slow") return; // never answers
      if (req.url?.startsWith("/info")) res.end('{"binaries":{"any":"file://' + join(dir, "bin") + '"}}');
      else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it("fetches http and file URLs and verifies checksums", async () => {
    const r = hostResolver(2000);
    expect(await validatePlanInfo(`${base}/info`, opts(r))).toEqual({ ok: true, value: undefined });
    expect(await validatePlanInfo(`file://${join(dir, "info.json")}`, opts(r))).toEqual({ ok: true, value: undefined });
    const sum = toHex(sha256(utf8("ELF")));
    const good = await r.fetch(`file://${join(dir, "bin")}?checksum=sha256:${sum}`);
    expect(good.ok).toBe(true);
    const bad = await r.fetch(`file://${join(dir, "bin")}?checksum=sha256:${"0".repeat(64)}`);
    expect(bad).toEqual({ ok: false, error: `checksums did not match: expected ${"0".repeat(64)}, got ${sum}` });
    expect(await r.fetch(`${base}/nothing`)).toEqual({ ok: false, error: "bad response code: 404" });
    expect(await r.fetch("ftp://h/x")).toEqual({ ok: false, error: "download not supported for scheme 'ftp'" });
  });

  it("an unreachable host or a silent one is a clear download error", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const v = await validatePlanInfo(`http://127.0.0.1:${port}/info`, opts(hostResolver(2000)));
    expect(v).toEqual({
      ok: false,
      error: `could not download url "http://127.0.0.1:${port}/info": Get "http://127.0.0.1:${port}/info": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
    const slow = await hostResolver(200).fetch(`${base}/slow`);
    expect(slow).toEqual({
      ok: false,
      error: `Get "${base}/slow": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`,
    });
  });
});
