import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LATEST, latestNote, latestRunId, pointLatest } from "./latest.js";

/** A report directory with two run folders, each with its page. */
function reports(): string {
  const dir = mkdtempSync(join(tmpdir(), "chainsim-latest-"));
  for (const id of ["run-1", "run-2"]) {
    mkdirSync(join(dir, id));
    writeFileSync(join(dir, id, "index.html"), `<title>${id}</title>`);
  }
  return dir;
}

const refuse = () => {
  throw Object.assign(new Error("operation not permitted, symlink"), { code: "EPERM" });
};

describe("reports/latest", () => {
  it("is a relative link to the newest run's folder, so latest/index.html opens its page", () => {
    const dir = reports();
    expect(latestRunId(dir)).toBeUndefined();
    expect(pointLatest(dir, "run-1")).toEqual({ kind: "link" });
    expect(readlinkSync(join(dir, LATEST))).toBe("run-1");
    expect(readFileSync(join(dir, LATEST, "index.html"), "utf8")).toBe("<title>run-1</title>");
    expect(latestRunId(dir)).toBe("run-1");

    // Replaced by the next run (renamed over, leaving no temporary behind).
    expect(pointLatest(dir, "run-2")).toEqual({ kind: "link" });
    expect(readFileSync(join(dir, LATEST, "index.html"), "utf8")).toBe("<title>run-2</title>");
    expect(latestRunId(dir)).toBe("run-2");
    expect(readdirSync(dir).sort()).toEqual([LATEST, "run-1", "run-2"]);
  });

  it("falls back to a text file naming the run where the filesystem refuses links, and says so", () => {
    const dir = reports();
    pointLatest(dir, "run-1");
    const form = pointLatest(dir, "run-2", refuse);
    expect(form).toEqual({ kind: "file", reason: "EPERM" });
    expect(lstatSync(join(dir, LATEST)).isFile()).toBe(true);
    expect(readFileSync(join(dir, LATEST), "utf8")).toBe("run-2\n");
    expect(latestRunId(dir)).toBe("run-2");
    expect(latestNote(dir, form)).toBe(
      `note: ${join(dir, LATEST)} is a text file naming the newest run, not a link to its folder (the filesystem refused a symbolic link: EPERM)`,
    );
    expect(latestNote(dir, { kind: "link" })).toBeUndefined();
    expect(readdirSync(dir).sort()).toEqual([LATEST, "run-1", "run-2"]);

    // A filesystem that allows links again replaces the file by a link.
    expect(pointLatest(dir, "run-1")).toEqual({ kind: "link" });
    expect(latestRunId(dir)).toBe("run-1");
  });

  it("reports, rather than throws, when latest cannot be written at all", () => {
    const dir = reports();
    mkdirSync(join(dir, LATEST, "in-the-way"), { recursive: true });
    const form = pointLatest(dir, "run-1", refuse);
    expect(form.kind).toBe("none");
    expect(latestNote(dir, form)).toMatch(/^note: could not update .*latest \(EPERM; E[A-Z]+\)$/);
    expect(latestRunId(dir)).toBeUndefined();
  });
});
