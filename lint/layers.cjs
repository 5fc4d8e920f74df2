/**
 * The layer table of chainsim, read by .dependency-cruiser.cjs (import rules) and test/lint-boundary.test.ts (the
 * determinism lint ban covers exactly the non-edge source files). See .dependency-cruiser.cjs for what each layer is.
 */

/** Layers, bottom first: [name, folders under src/]. A folder imports its own layer and those below. */
const LAYERS = [
  ["core", ["core", "gen"]],
  ["store", ["store"]],
  ["modules", ["bank", "gov", "upgrade"]],
  ["app", ["app"]],
  ["chain", ["chain", "faults"]],
  ["api", ["api"]],
  ["scenario", ["scenario"]],
  ["harness", ["harness", "explore", "server", "rehearse"]],
  ["report", ["report", "devnet"]],
  ["cli", ["cli"]],
];

/** The I/O edges under src/: the only source folders that may touch the host (clock, env, file system, network). */
const EDGES = ["cli", "server", "devnet", "node"];

module.exports = { LAYERS, EDGES };
