import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Debian's `chromium` on the PATH (or CHROMIUM=<path>); undefined when the machine has none. */
export const CHROMIUM = [
  process.env.CHROMIUM,
  ...(process.env.PATH ?? "").split(delimiter).map((d) => join(d, "chromium")),
  "/usr/bin/chromium-browser",
].find((p): p is string => p !== undefined && p !== "" && existsSync(p));

/**
 * Runs headless Chromium on `url` with a throw-away profile, no first-run UI and no background networking (this
 * machine's network is closed), plus the caller's flags. Rejects when Chromium exits non-zero or takes over 90 s.
 */
export async function headlessChromium(
  url: string,
  extra: readonly string[],
): Promise<{ stdout: string; stderr: string }> {
  if (CHROMIUM === undefined)
    throw new Error("no chromium on this machine (install Debian's chromium or set CHROMIUM)");
  const profile = mkdtempSync(join(tmpdir(), "chainsim-chromium-"));
  try {
    return await run(
      CHROMIUM,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        `--user-data-dir=${profile}`,
        ...extra,
        url,
      ],
      { maxBuffer: 64 << 20, timeout: 90_000 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
}
