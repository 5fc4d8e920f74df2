#!/usr/bin/env node
// Entry point. Runs the pre-built CLI (dist/chainsim.mjs, built by `npm ci` through `prepare`, or `npm run build`)
// when none of the files it was built from changed since (bundle-inputs.js); otherwise the TypeScript sources
// through tsx, which transpiles them at every start (about a second slower), with one line on stderr saying why.
// CHAINSIM_FROM_SOURCES=1 asks for the sources (no line).
// `check` on a machine of 4 cores or fewer runs in a child process with V8's background pool cut to cores − 1
// threads (at least 1; Node's default is 4): the optimising compiler and the GC helpers then take turns on the other
// core instead of preempting the campaign's thread (docs/performance.md, "Session 12: V8's pool on a small machine":
// 0.97× the wall time of a 100-run check on the 2-core machine, start-up of the child included, the same CPU). The
// child's status is this process's; a signal to this process is passed on.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { staleReason } from "./bundle-inputs.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Node's default size of V8's platform pool. */
const NODE_V8_POOL_DEFAULT = 4;
const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];

/** The pool size `check` runs with, or undefined to run here (another command, a pool already set, 5+ cores). */
function checkPoolSize(args) {
  if (args[0] !== "check" || process.execArgv.some((a) => a.startsWith("--v8-pool-size"))) return undefined;
  const size = Math.max(1, availableParallelism() - 1);
  return size < NODE_V8_POOL_DEFAULT ? size : undefined;
}

/** Runs this file again with the pool flag; resolves with the child's status, or re-raises its signal. */
async function runWithPool(size, args) {
  const child = spawn(
    process.execPath,
    [`--v8-pool-size=${size}`, ...process.execArgv, fileURLToPath(import.meta.url), ...args],
    { stdio: "inherit" },
  );
  for (const s of FORWARDED_SIGNALS) process.on(s, () => child.kill(s));
  const [code, signal] = await once(child, "exit");
  if (signal !== null) {
    for (const s of FORWARDED_SIGNALS) process.removeAllListeners(s);
    process.kill(process.pid, signal);
  }
  return code ?? 1;
}

const poolSize = checkPoolSize(process.argv.slice(2));
if (poolSize !== undefined) {
  process.exitCode = await runWithPool(poolSize, process.argv.slice(2));
} else {
  process.exitCode = await runHere();
}

/** Whether to run the bundle; says on stderr why not, unless the sources were asked for. */
function bundleIsFresh() {
  if (process.env.CHAINSIM_FROM_SOURCES === "1") return false;
  const reason = staleReason(root);
  if (reason === undefined) return true;
  process.stderr.write(`chainsim: running from the sources: ${reason}\n`);
  return false;
}

/** The CLI in this process: the bundle when fresh, else the sources through tsx. */
async function runHere() {
  let main;
  if (bundleIsFresh()) {
    ({ main } = await import(`${root}dist/chainsim.mjs`));
  } else {
    const { register } = await import("tsx/esm/api");
    register();
    ({ main } = await import("../src/cli/main.ts"));
  }
  return await main(process.argv.slice(2));
}
