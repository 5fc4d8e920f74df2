#!/usr/bin/env node
// Entry point. Runs the pre-built CLI (dist/chainsim.mjs, built by `npm ci` through `prepare`, or `npm run build`)
// when none of the files it was built from changed since (bundle-inputs.js); otherwise the TypeScript sources
// through tsx, which transpiles them at every start (about a second slower), with one line on stderr saying why.
// CHAINSIM_FROM_SOURCES=1 asks for the sources (no line).
import { fileURLToPath } from "node:url";
import { staleReason } from "./bundle-inputs.js";

const root = fileURLToPath(new URL("..", import.meta.url));

/** Whether to run the bundle; says on stderr why not, unless the sources were asked for. */
function bundleIsFresh() {
  if (process.env.CHAINSIM_FROM_SOURCES === "1") return false;
  const reason = staleReason(root);
  if (reason === undefined) return true;
  process.stderr.write(`chainsim: running from the sources: ${reason}\n`);
  return false;
}

let main;
if (bundleIsFresh()) {
  ({ main } = await import(`${root}dist/chainsim.mjs`));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
