// Bundles a bench/ entry as the benches bundle their child processes (bench/bundle.ts: as the CLI is built), so that
// an in-process driver runs, is profiled or has its instructions counted on the code users run, not through tsx
// (docs/performance.md, "Counting instructions").
// Run: node --import tsx bench/bundle-entry.ts <entry> <name>; prints the bundle's path
// (node_modules/.cache/chainsim-bench/<name>.mjs). Exit 2 without both arguments.
import { bundleForBench } from "./bundle.js";

const [entry, name] = process.argv.slice(2);
if (entry === undefined || name === undefined) {
  process.stderr.write("usage: node --import tsx bench/bundle-entry.ts <entry> <name>\n");
  process.exit(2);
}
process.stdout.write(`${await bundleForBench(entry, name)}\n`);
