// Whether the pre-built CLI (dist/chainsim.mjs, its worker bundles and the chunks they share or load on use) is as
// new as everything it was built from. scripts/build-cli.mjs writes dist/chainsim.inputs.json: the files it built
// (`outputs`, in dist/), esbuild's own list of the files they were built from (the metafile's inputs, every
// chunk's: src/, properties/, models/, the bundled dependencies), and the time the build started. The bundle is
// stale when that list is missing, when a built file is gone, or when any input is gone or was modified after the
// build started: so no input can be missed, whatever folder it lives in, and whichever command loads it.
//
// Cost: one stat per file, about 1,100 of them, most of it in creating Node's Stats objects; 7.6–9.0 ms of CPU of
// `chainsim --help`'s 110 (docs/performance.md, start-up).
import { existsSync, readFileSync, statSync } from "node:fs";

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
  if (typeof startedMs !== "number" || !Array.isArray(list.inputs) || !Array.isArray(list.outputs))
    return "dist/chainsim.inputs.json is unreadable";
  for (const output of list.outputs)
    if (!existsSync(`${root}dist/${output}`)) return `dist/${output} is gone (npm run build)`;
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
