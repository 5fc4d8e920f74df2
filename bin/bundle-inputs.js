// Whether the pre-built CLI (dist/chainsim.mjs and its worker bundles) is as new as everything it was built from.
// scripts/build-cli.mjs writes dist/chainsim.inputs.json: esbuild's own list of the files the bundles were built
// from (the metafile's inputs: src/, properties/, models/, the bundled dependencies), and the time the build
// started. The bundle is stale when that list is missing, or when any input is gone or was modified after the build
// started: so no input can be missed, whatever folder it lives in.
import { readFileSync, statSync } from "node:fs";

/**
 * Why the bundle under `root` (the repository, ending in "/") must not run, as one line; undefined when it is fresh.
 * Reads only the file system.
 */
export function staleReason(root) {
  let list;
  try {
    list = JSON.parse(readFileSync(`${root}dist/chainsim.inputs.json`, "utf8"));
  } catch {
    return "dist/chainsim.mjs is not built, or without its list of inputs (npm run build)";
  }
  const startedMs = list.startedMs;
  if (typeof startedMs !== "number" || !Array.isArray(list.inputs)) return "dist/chainsim.inputs.json is unreadable";
  for (const input of list.inputs) {
    let mtimeMs;
    try {
      mtimeMs = statSync(`${root}${input}`).mtimeMs;
    } catch {
      return `${input} is gone since dist/chainsim.mjs was built (npm run build)`;
    }
    if (mtimeMs > startedMs) return `${input} changed after dist/chainsim.mjs was built (npm run build)`;
  }
  return undefined;
}
