#!/usr/bin/env node
// Entry point. Runs the pre-built CLI (dist/chainsim.mjs, built by `npm ci` through `prepare`, or `npm run build`)
// when it is at least as new as the sources; otherwise the TypeScript sources through tsx, which transpiles them at
// every start (slow: about a second more), with a note when the bundle is missing.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = `${root}dist/chainsim.mjs`;

/** The newest modification time (ms) of the files under `dir`, walked at most `depth` levels. */
function newestMs(dir, depth) {
  let newest = 0;
  let entries = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) {
      if (depth > 0) newest = Math.max(newest, newestMs(p, depth - 1));
    } else if (e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")) {
      newest = Math.max(newest, statSync(p).mtimeMs);
    }
  }
  return newest;
}

function bundleIsFresh() {
  if (process.env.CHAINSIM_FROM_SOURCES === "1") return false;
  if (!existsSync(bundle)) {
    process.stderr.write("chainsim: dist/chainsim.mjs is not built (npm run build); running from the sources\n");
    return false;
  }
  const built = statSync(bundle).mtimeMs;
  return newestMs(`${root}src`, 8) <= built && newestMs(`${root}models`, 2) <= built;
}

let main;
if (bundleIsFresh()) {
  ({ main } = await import(bundle));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ main } = await import("../src/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
