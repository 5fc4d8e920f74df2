import { describe, expect, it } from "vitest";
import { MemoryFs } from "./fs.js";

describe("MemoryFs: a disk that fills up in the middle of a write", () => {
  it("keeps the first bytes of a write below the limited directory and fails with Go's ENOSPC text", () => {
    const fs = new MemoryFs();
    fs.mkdirAll("/home/data", 0o755);
    fs.setWriteLimit("/home/data", 10);
    const w = fs.writeFile("/home/data/upgrade-info.json", '{"name":"v2","height":1000}', 0o600);
    expect(w).toEqual({
      ok: false,
      error: { code: "ENOSPC", message: "write /home/data/upgrade-info.json: no space left on device" },
    });
    expect(fs.readFile("/home/data/upgrade-info.json")).toEqual({ ok: true, value: '{"name":"v' });
    // A write that fits succeeds whole; files elsewhere are not limited.
    expect(fs.writeFile("/home/data/upgrade-info.json", "{}", 0o600)).toEqual({ ok: true, value: undefined });
    expect(fs.readFile("/home/data/upgrade-info.json")).toEqual({ ok: true, value: "{}" });
    expect(fs.writeFile("/home/config.toml", "x".repeat(100), 0o600).ok).toBe(true);
  });

  it("carries the limit through clone and snapshot", () => {
    const fs = new MemoryFs();
    fs.mkdirAll("/d", 0o755);
    fs.setWriteLimit("/d", 1);
    for (const copy of [fs.clone(), MemoryFs.fromSnapshot(fs.snapshot())]) {
      expect(copy.writeFile("/d/f", "abc", 0o600).ok).toBe(false);
      expect(copy.readFile("/d/f")).toEqual({ ok: true, value: "a" });
    }
    fs.setWriteLimit("/d", undefined);
    expect(fs.writeFile("/d/f", "abc", 0o600).ok).toBe(true);
  });
});
