import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { bundleForBench } from "./bundle.js";

/**
 * What a user's `chainsim check --runs USER_RUNS --workers 1` costs (harness.bench.ts prints it): a fresh process's
 * wall time and CPU, all threads and the main thread.
 */

/** Runs per property of the user's campaign (`chainsim check`'s default). */
export const USER_RUNS = 100;

/**
 * CPU time (user + system, ms) of this process's waited-for children, from /proc/self/stat (`cutime`, `cstime`, in
 * Linux's fixed 100 ticks per second); undefined where there is no /proc.
 */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of stat(5); the slice starts at field 3.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system, ms) of one thread from its /proc stat line (fields 14 and 15, 100 ticks per second). */
function statCpuMs(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (ms) of the calling thread (this process's main thread), from /proc/thread-self; undefined without it. */
export function mainThreadCpuMs(): number | undefined {
  try {
    return statCpuMs(readFileSync("/proc/thread-self/stat", "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The process whose main thread runs the campaign: on a machine of 4 cores or fewer bin/chainsim.js runs `check` in
 * a child (V8's pool cut to cores − 1), whose main thread is the one to sample (undefined until it has started);
 * otherwise the spawned process itself.
 */
function campaignPid(pid: number): number | undefined {
  if (availableParallelism() > 4) return pid;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").filter(Boolean);
  return children.length === 1 ? Number(children[0]) : undefined;
}

/** How often the user check's main thread CPU is sampled: its last sample misses at most this much of its end. */
const THREAD_POLL_MS = 20;

export interface UserCheck {
  runs: number;
  ms: number;
  campaignRunsPerS: number;
  cpuMs: number | undefined;
  mainThreadCpuMs: number | undefined;
}

/**
 * `chainsim check --runs USER_RUNS --workers 1` as a user runs it: a fresh process, timed from spawn to exit, with
 * its CPU time (the bench's other children have ended by then, so the difference is this child's), and its main
 * thread's CPU time sampled from /proc/<pid>/task/<pid>/stat every THREAD_POLL_MS while it runs (the rest of its CPU
 * is V8's background threads: the optimising compiler, which on a quiet 2-core machine has the other core, and GC
 * helpers).
 */
export async function userCheck(seed: number): Promise<UserCheck> {
  const dir = mkdtempSync(join(tmpdir(), "chainsim-bench-"));
  try {
    const args = ["bin/chainsim.js", "check", "--runs", String(USER_RUNS), "--workers", "1", "--seed", String(seed)];
    const flags = ["--no-page", "--json", "--report-dir", dir, "--regressions-dir", dir];
    const cpu0 = childrenCpuMs();
    const t0 = performance.now();
    const child = spawn(process.execPath, [...args, ...flags], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr = (stderr + d).slice(-2000);
    });
    let mainMs: number | undefined;
    let campaign: number | undefined;
    const poll = setInterval(() => {
      try {
        campaign ??= campaignPid(child.pid!);
        const pid = campaign ?? child.pid!;
        mainMs = statCpuMs(readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8"));
      } catch {
        // Gone or no /proc: keep the last sample.
      }
    }, THREAD_POLL_MS);
    const status = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
    clearInterval(poll);
    const ms = performance.now() - t0;
    const cpu1 = childrenCpuMs();
    if (status !== 0 && status !== 1) throw new Error(`chainsim check exited ${status}: ${stderr.slice(-500)}`);
    const out = JSON.parse(stdout) as { runs: number; runsPerS: number; verdict: string };
    if (out.verdict !== "passed")
      process.stderr.write(`harness: warning: the user's campaign at seed ${seed} did not pass (${out.verdict})\n`);
    const cpuMs = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
    return { runs: out.runs, ms, campaignRunsPerS: out.runsPerS, cpuMs, mainThreadCpuMs: mainMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface UserCampaignWarm {
  runs: number;
  ms: number;
  mainThreadCpuMs: number | undefined;
}

/**
 * The user's campaign (`check --runs USER_RUNS --workers 1 --seed <seed>`) warm, in the bundled code the user's
 * check runs (bench/user-check-warm.ts, in a child after `warmUpRuns` runs of another seed): the same work in the
 * same build as userCheck's, so the two differ only in the process being fresh.
 */
export async function userCampaignWarm(seed: number, warmUpRuns: number): Promise<UserCampaignWarm> {
  const bundle = await bundleForBench("bench/user-check-warm.ts", "user-check-warm");
  // The pool bin/chainsim.js gives `check` on a machine of 4 cores or fewer.
  const cores = availableParallelism();
  const pool = cores <= 4 ? [`--v8-pool-size=${Math.max(1, cores - 1)}`] : [];
  const child = spawn(process.execPath, [...pool, bundle, String(seed), String(warmUpRuns)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
  });
  const status = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  if (status !== 0) throw new Error(`user-check-warm exited ${status}`);
  const out = JSON.parse(stdout) as { runs: number; verdict: string; ms: number; mainThreadCpuMs: number | null };
  if (out.verdict !== "passed")
    process.stderr.write(`harness: warning: the user's campaign warm at seed ${seed} did not pass (${out.verdict})\n`);
  return { runs: out.runs, ms: out.ms, mainThreadCpuMs: out.mainThreadCpuMs ?? undefined };
}
