/**
 * What one detector run says about one mutant (docs/mutation.md "Verdicts"). Contract: pure; reads the detector's
 * exit code and output, never the file system.
 *
 * 1. Exit 0: the mutant survived this detector.
 * 2. A property failed (`check`, exit 1) or a scenario expectation failed (`run`, exit 1): killed.
 * 3. A crash (exit 3, or an exception out of the command): killed only when the error was thrown in the product, the
 *    chain's own code (`src/` outside the harness, the CLI, the report and the explorer). A crash whose topmost
 *    frame of this repository lies in the harness, the properties, the models or the tooling is a crash of the
 *    harness; one without any frame of this repository (fast-check's `null`, a bare message) too.
 * 4. Anything that is not the detector judging the mutant is an environment failure: the sources did not load, a
 *    usage error (exit 2: the detector's own flags or files), a signal or an unknown exit code, or an error of the
 *    machine (out of memory, no disk space, too many open files, a missing module).
 * 5. A Stryker timeout is a kill (an endless loop) unless the detector never finished loading the sources: then the
 *    detector's own start timed out (`startTimeout`), which says nothing about the mutant.
 * Only `property` and `productCrash` (and a timeout after the start) are kills; the others are counted apart.
 */

export type DetectorVerdict = "survived" | "property" | "productCrash" | "harnessCrash" | "environment";

/** Verdicts that kill the mutant. */
export const KILLING_VERDICTS: ReadonlySet<DetectorVerdict> = new Set(["property", "productCrash"]);

/** Verdicts that are no verdict on the mutant: counted apart, never as kills. */
export const NO_VERDICT = ["harnessCrash", "environment", "startTimeout"] as const;
export type NoVerdict = (typeof NO_VERDICT)[number];

export interface DetectorRun {
  /** The chainsim command the detector ran (`check` or `run`). */
  readonly command: string;
  /** The exit code; null when the process ended by a signal. */
  readonly exitCode: number | null;
  /** Whether the sources were loaded before the command ran. */
  readonly loaded: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

/** Errors of the machine, not of the program. */
const ENVIRONMENT =
  /\b(ENOSPC|ENOMEM|EMFILE|ENFILE|EACCES|EPERM|EROFS|EIO|ERR_MODULE_NOT_FOUND)\b|Cannot find module|heap out of memory|Allocation failed|Worker terminated due to reaching memory limit/;

/** Repository folders whose code is the harness or tooling, not the product. */
const HARNESS = /(^|\/)(src\/harness|src\/cli|src\/report|src\/explore|properties|models|mutation|scripts|test)\//;

/** The repository paths (`src/...`, `properties/...`) of a stack's frames, top first; node_modules and Node's own left out. */
export function repoFrames(stack: string): string[] {
  const out: string[] = [];
  for (const line of stack.split("\n")) {
    if (!/^\s*at /.test(line) || line.includes("node_modules") || line.includes("node:")) continue;
    const m = /((?:src|properties|models|mutation|scripts|test)\/[^\s:()]+\.(?:ts|mjs|js)):\d+/.exec(line);
    if (m !== null) out.push(m[1]!);
  }
  return out;
}

/** A crash's verdict from its error text: where the topmost frame of this repository lies. */
export function crashVerdict(errorText: string): DetectorVerdict {
  if (ENVIRONMENT.test(errorText)) return "environment";
  const top = repoFrames(errorText)[0];
  if (top === undefined) return "harnessCrash";
  return HARNESS.test(top) ? "harnessCrash" : "productCrash";
}

/** The error texts a crashed `check --json` reports: each crashed property's `error` (a stack). */
function checkErrors(stdout: string): string[] {
  const line = stdout.trim().split("\n").pop() ?? "";
  try {
    const summary = JSON.parse(line) as { properties?: { error?: unknown }[] };
    return (summary.properties ?? []).flatMap((p) => (typeof p.error === "string" ? [p.error] : []));
  } catch {
    return [];
  }
}

/** The verdict of one detector run (steps 1-4). */
export function detectorVerdict(r: DetectorRun): DetectorVerdict {
  if (!r.loaded) return "environment";
  if (r.exitCode === 0) return "survived";
  if (r.exitCode === 1) return "property";
  if (r.exitCode !== 3) return "environment";
  const errors = r.command === "check" ? checkErrors(r.stdout) : [];
  const texts = errors.length > 0 ? errors : [r.stderr];
  const verdicts = texts.map(crashVerdict);
  // One product crash is enough: the mutant broke the chain.
  if (verdicts.includes("productCrash")) return "productCrash";
  return verdicts.includes("environment") ? "environment" : "harnessCrash";
}
