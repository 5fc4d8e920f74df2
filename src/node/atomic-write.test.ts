import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryPathOf, writeFileAtomic } from "./atomic-write.js";

const fresh = () => mkdtempSync(join(tmpdir(), "chainsim-atomic-"));

describe("writeFileAtomic", () => {
  it("replaces the file with the whole new text and leaves no temporary file", () => {
    const dir = fresh();
    const path = join(dir, "profile.yaml");
    writeFileSync(path, "old: 1\n");
    writeFileAtomic(path, "new: 2\n", { mode: 0o600 });
    expect(readFileSync(path, "utf8")).toBe("new: 2\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["profile.yaml"]);
  });

  it("a write that fails part-way leaves the old file whole and no half-written file behind", () => {
    const dir = fresh();
    const path = join(dir, "exploration.json");
    writeFileSync(path, '{"old":true}\n');
    // The disk fills after half the text reached the temporary file.
    const failing = ((file: string, text: string, o: object) => {
      writeFileSync(file, text.slice(0, text.length / 2), o);
      throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: "ENOSPC" });
    }) as typeof writeFileSync;
    expect(() => writeFileAtomic(path, `{"new":"${"x".repeat(1000)}"}\n`, {}, failing)).toThrow(/ENOSPC/);
    expect(readFileSync(path, "utf8")).toBe('{"old":true}\n');
    expect(readdirSync(dir)).toEqual(["exploration.json"]);
  });

  it("a rename that fails (the target is a directory) throws and removes the temporary file", () => {
    const dir = fresh();
    const path = join(dir, "chart.svg");
    mkdirSync(path);
    expect(() => writeFileAtomic(path, "<svg/>")).toThrow(/EISDIR|ENOTEMPTY|EEXIST|EPERM/);
    expect(readdirSync(dir)).toEqual(["chart.svg"]);
    expect(statSync(path).isDirectory()).toBe(true);
  });

  it("makes the directory when asked, and writes the temporary file beside the target", () => {
    const dir = fresh();
    const path = join(dir, "reports", "explore", "latest.json");
    writeFileAtomic(path, "{}\n", { makeDir: true });
    expect(readFileSync(path, "utf8")).toBe("{}\n");
    expect(temporaryPathOf(path)).toBe(join(dir, "reports", "explore", `.latest.json.${process.pid}.tmp`));
  });
});
