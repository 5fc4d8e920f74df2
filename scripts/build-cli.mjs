// Builds the pre-built CLI with esbuild: dist/chainsim.mjs (src/cli/main.ts), and the worker-thread modules beside
// it, dist/explore-worker.mjs (the explorer's) and dist/check-worker.mjs (the property campaign's), so that
// `chainsim` starts without transpiling TypeScript. The pure-JS dependencies are bundled in (a few files parse
// faster than hundreds of modules); native and file-located packages stay external and load from node_modules at run
// time. Code splitting: what the three entries share, and each command that src/cli/commands.ts imports on use, is a
// chunk of its own beside them (dist/chunk-<hash>.mjs), so `chainsim --help` parses commander and the command table
// only, and a command parses only its own code (docs/performance.md "Start-up"). Run by `npm ci` (the root package's `prepare`) and `npm run build`; bin/chainsim.js falls back to the
// sources through tsx when the bundle is missing or any of its inputs (dist/chainsim.inputs.json) is newer.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));

// `--outdir DIR` builds elsewhere (the bundle test); DIR must lie inside the repository so that the external
// packages resolve from its node_modules.
const at = process.argv.indexOf("--outdir");
const outdir = `${root}${at > 0 ? process.argv[at + 1] : "dist"}`;

/** Packages with native code, worker files or assets they locate on disk: never bundled. */
const EXTERNAL = ["classic-level", "piscina", "swagger-ui-dist", "tsx", "tsx/*", "@grpc/*", "esbuild"];

/** The chunks' names: esbuild's `chunkNames` below, then `.mjs`. */
const CHUNK = /^chunk-[A-Z0-9]+\.mjs$/;

const list = `${outdir}/chainsim.inputs.json`;
/** The previous build's files (a process it started may still import one of its chunks on use). */
const previous = readPreviousOutputs();
rmSync(list, { force: true });
// Built beside, then moved in file by file: no file in outdir is ever half written.
const next = `${outdir}/.next`;
rmSync(next, { recursive: true, force: true });
mkdirSync(next, { recursive: true });
const startedMs = Date.now();
const result = await build({
  entryPoints: {
    chainsim: "src/cli/main.ts",
    "explore-worker": "src/explore/worker.ts",
    "check-worker": "src/cli/check-worker.ts",
  },
  absWorkingDir: root,
  outdir: next,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  splitting: true,
  chunkNames: "chunk-[hash]",
  target: "node20",
  external: EXTERNAL,
  // Bundled CommonJS dependencies call require() for Node built-ins.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: "warning",
  metafile: true,
});

// 1. The chunks first, then the entries that import them; each rename replaces its file whole.
const outputs = Object.keys(result.metafile.outputs)
  .map((o) => basename(o))
  .sort((a, b) => Number(CHUNK.test(b)) - Number(CHUNK.test(a)) || a.localeCompare(b));
for (const name of outputs) renameSync(`${next}/${name}`, `${outdir}/${name}`);
rmSync(next, { recursive: true, force: true });
// 2. Chunks are named by their contents, so each build may add some: drop those neither this build nor the previous
//    one wrote.
for (const name of readdirSync(outdir))
  if (CHUNK.test(name) && !outputs.includes(name) && !previous.includes(name)) rmSync(`${outdir}/${name}`);

// 3. Every file the three entries and their chunks were built from (esbuild's metafile: the sources under src/,
//    properties/, models/, the scenario schema's inputs, and the bundled dependencies' files), relative to the
//    repository, and the files built (in outdir): bin/chainsim.js runs the bundle only when every built file is
//    there and no input is newer than this list (or missing). Written last and atomically, so a failed or
//    interrupted build leaves no list and the CLI runs from the sources. `startedMs`: an input modified after the
//    build started may be missing from the bundle.
const inputs = Object.keys(result.metafile.inputs).sort();
writeFileSync(`${list}.tmp`, `${JSON.stringify({ startedMs, outputs, inputs })}\n`);
renameSync(`${list}.tmp`, list);

/** The files the previous build listed; none when there was no list. */
function readPreviousOutputs() {
  try {
    const outputs = JSON.parse(readFileSync(list, "utf8")).outputs;
    return Array.isArray(outputs) ? outputs : [];
  } catch {
    return [];
  }
}
