import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HostFs } from "./host-fs.js";

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "host-fs-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("HostFs", () => {
  const fs = new HostFs();

  it("writes with the given mode, reads back, and keeps the mode when truncating", () => {
    const d = tempDir();
    const p = join(d, "upgrade-info.json");
    expect(fs.writeFile(p, "a", 0o600)).toEqual({ ok: true, value: undefined });
    expect(statSync(p).mode & 0o777).toBe(0o600);
    expect(fs.writeFile(p, "bb", 0o644).ok).toBe(true);
    expect(statSync(p).mode & 0o777).toBe(0o600);
    expect(fs.readFile(p)).toEqual({ ok: true, value: "bb" });
    expect(fs.exists(p)).toBe(true);
  });

  it("renders errors as Go path errors", () => {
    const d = tempDir();
    expect(fs.readFile(join(d, "none"))).toEqual({
      ok: false,
      error: { code: "ENOENT", message: `open ${join(d, "none")}: no such file or directory` },
    });
    expect(fs.readFile(d)).toEqual({ ok: false, error: { code: "EISDIR", message: `read ${d}: is a directory` } });
    expect(fs.writeFile(join(d, "x", "y"), "", 0o600).ok).toBe(false);
    writeFileSync(join(d, "f"), "");
    const r = fs.mkdirAll(join(d, "f", "sub"), 0o755);
    expect(r.ok ? "" : r.error.code).toBe("ENOTDIR");
  });

  it("mkdirAll creates parents and succeeds on an existing directory", () => {
    const d = tempDir();
    expect(fs.mkdirAll(join(d, "a", "b", "c"), 0o755).ok).toBe(true);
    expect(fs.mkdirAll(join(d, "a", "b"), 0o755).ok).toBe(true);
    expect(statSync(join(d, "a", "b", "c")).isDirectory()).toBe(true);
  });
});
