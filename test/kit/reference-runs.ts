import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { inject } from "vitest";
import type { EngineOptions } from "../../src/chain/records.js";
import type { Fault } from "../../src/faults/index.js";
import { FAULT_BLOCKS_MAX, runEnd, scenarioUnder } from "../scenario-suite.js";

/**
 * The reference run of a library scenario, shared by the library-wide equivalence files (shared execution, the
 * stalled-retry shortcut, engine snapshots): each compares an engine variant against the same run with the default
 * engine options, so that run is computed once per `vitest run` instead of once per file.
 *
 * 1. The key is the scenario file and the planted fault (none, or one added to the file's own faults); a run under a
 *    fault stops after FAULT_BLOCKS_MAX blocks, as in `libraryUnderFaults`. Nothing else varies: the scenario is
 *    loaded here from its file, so a caller cannot pass a changed one under the same key.
 * 2. Within one test file a computed end is kept in memory.
 * 3. Across test files (vitest isolates each file's modules) the end is a v8-serialized file in the directory the
 *    global setup (test/kit/reference-runs-setup.ts) creates for this run and removes after it. A worker claims a key
 *    with an exclusive lock file, computes, writes to a temporary name and renames, so a reader never sees half a
 *    file; another worker that wants it meanwhile does its own work first (`claimReferenceEnd`), then waits for it
 *    (`referenceEnd`, bounded: past WAIT_MS_MAX it computes the end itself).
 * 4. Without that directory (a config without the global setup) every end is computed in memory.
 *
 * Contract: `referenceEnd(file, fault)` deep-equals `runEnd(s, {}, fault ? FAULT_BLOCKS_MAX : undefined)` of the
 * scenario `s` that `loadScenario(file)` gives with `fault` added, computed in this process.
 */

declare module "vitest" {
  export interface ProvidedContext {
    referenceRunsDir: string;
  }
}

type End = ReturnType<typeof runEnd>;

const memo = new Map<string, End>();

function sharedDir(): string | undefined {
  try {
    const dir = inject("referenceRunsDir");
    return typeof dir === "string" && dir !== "" ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** Where the end of `key` is kept across test files, when the global setup made a directory for it. */
function pathOf(key: string): string | undefined {
  const dir = sharedDir();
  return dir === undefined ? undefined : join(dir, `${key.replace(/[^A-Za-z0-9_.-]/g, "_")}.v8`);
}

const keyOf = (file: string, fault: Fault | undefined) => `${file}#${fault ?? ""}`;

function readKept(key: string, path: string | undefined): End | undefined {
  const kept = memo.get(key);
  if (kept !== undefined || path === undefined || !existsSync(path)) return kept;
  const end = deserialize(readFileSync(path)) as End;
  memo.set(key, end);
  return end;
}

function compute(key: string, path: string | undefined, file: string, fault: Fault | undefined): End {
  const end = runEnd(scenarioUnder(file, fault), {}, fault === undefined ? undefined : FAULT_BLOCKS_MAX);
  if (path !== undefined) {
    const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
    writeFileSync(tmp, serialize(end));
    renameSync(tmp, path);
  }
  memo.set(key, end);
  return end;
}

/** Claims the computation of `path` for this process: false when another process holds it. */
function claim(path: string): boolean {
  try {
    writeFileSync(`${path}.lock`, String(process.pid), { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The reference end of `file` (under `fault`) when it is known or this process claims it (and computes it now);
 * undefined while another worker computes it: the caller does its own work first, then calls `referenceEnd`.
 */
export function claimReferenceEnd(file: string, fault?: Fault): End | undefined {
  const key = keyOf(file, fault);
  const path = pathOf(key);
  const kept = readKept(key, path);
  if (kept !== undefined) return kept;
  return path === undefined || claim(path) ? compute(key, path, file, fault) : undefined;
}

/** Longest wait for another worker's computation, then this process computes the end itself. */
const WAIT_MS_MAX = 120_000;
const POLL_MS = 20;

/** `runEnd` of `file` (under `fault`) with the default engine options: computed once per test run. */
export function referenceEnd(file: string, fault?: Fault): End {
  const key = keyOf(file, fault);
  const path = pathOf(key);
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (let waitedMs = 0; path !== undefined && waitedMs < WAIT_MS_MAX; waitedMs += POLL_MS) {
    const kept = readKept(key, path);
    if (kept !== undefined) return kept;
    if (claim(path)) return compute(key, path, file, fault);
    Atomics.wait(tick, 0, 0, POLL_MS);
  }
  return readKept(key, path) ?? compute(key, path, file, fault);
}

/**
 * An engine variant against the reference run: `file` (under `fault`) run with `off` (an engine shortcut turned off)
 * and the reference end (the default engine, shortcut on), each tagged with the file. While another worker computes
 * the reference, this one runs its own side first.
 */
export function onAndOff(file: string, off: EngineOptions, fault?: Fault) {
  const claimed = claimReferenceEnd(file, fault);
  const offEnd = runEnd(scenarioUnder(file, fault), off, fault === undefined ? undefined : FAULT_BLOCKS_MAX);
  return { on: { file, ...(claimed ?? referenceEnd(file, fault)) }, off: { file, ...offEnd } };
}
