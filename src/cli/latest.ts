/**
 * `<report-dir>/latest`: which run is the newest.
 *
 * Contract: after pointLatest(dir, id), `<dir>/latest` is a symbolic link to the run's folder (relative, so the
 * report directory can move), and `<dir>/latest/index.html` opens that run's page. The link is made under a
 * temporary name and renamed over the old one, so a reader sees the previous run or the new one, never neither.
 * Where the filesystem refuses symbolic links (some Windows and network filesystems), `latest` is instead a text
 * file holding the run id (written the same atomic way) and the caller tells the user so. latestRunId reads both
 * forms, and the text file older chainsim versions wrote.
 */
import { lstatSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";

export const LATEST = "latest";

/** What `latest` became: a link, or (the filesystem refused one) a text file; `none` when neither could be written. */
export type LatestForm =
  | { readonly kind: "link" }
  | { readonly kind: "file"; readonly reason: string }
  | { readonly kind: "none"; readonly reason: string };

const reasonOf = (e: unknown): string =>
  typeof e === "object" && e !== null && "code" in e ? String(e.code) : e instanceof Error ? e.message : String(e);

/** Points `<reportDir>/latest` at run `runId` (a folder in reportDir). `symlink` is injectable for tests. */
export function pointLatest(
  reportDir: string,
  runId: string,
  symlink: (target: string, path: string) => void = (t, p) => symlinkSync(t, p, "dir"),
): LatestForm {
  const path = join(reportDir, LATEST);
  const tmp = join(reportDir, `.${LATEST}-${process.pid}.tmp`);
  const replace = (make: () => void) => {
    rmSync(tmp, { force: true });
    try {
      make();
      renameSync(tmp, path);
    } finally {
      rmSync(tmp, { force: true });
    }
  };
  try {
    replace(() => symlink(runId, tmp));
    return { kind: "link" };
  } catch (e) {
    const reason = reasonOf(e);
    try {
      replace(() => writeFileSync(tmp, `${runId}\n`));
      return { kind: "file", reason };
    } catch (e2) {
      return { kind: "none", reason: `${reason}; ${reasonOf(e2)}` };
    }
  }
}

/** One line for the user when `latest` is not a link (undefined when it is). */
export function latestNote(reportDir: string, form: LatestForm): string | undefined {
  const path = join(reportDir, LATEST);
  if (form.kind === "link") return undefined;
  if (form.kind === "file")
    return `note: ${path} is a text file naming the newest run, not a link to its folder (the filesystem refused a symbolic link: ${form.reason})`;
  return `note: could not update ${path} (${form.reason})`;
}

/** The run `<reportDir>/latest` names (a link to the run's folder, or a text file with its id); undefined if none. */
export function latestRunId(reportDir: string): string | undefined {
  const path = join(reportDir, LATEST);
  try {
    const st = lstatSync(path);
    const id = st.isSymbolicLink()
      ? basename(readlinkSync(path))
      : st.isFile()
        ? readFileSync(path, "utf8").trim()
        : "";
    return id === "" ? undefined : id;
  } catch {
    return undefined;
  }
}
