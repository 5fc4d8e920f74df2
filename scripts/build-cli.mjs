// Builds the pre-built CLI with esbuild: dist/chainsim.mjs (src/cli/main.ts), and the worker-thread modules beside
// it, dist/explore-worker.mjs (the explorer's) and dist/check-worker.mjs (the property campaign's), so that
// `chainsim` starts without transpiling TypeScript. The pure-JS dependencies are bundled in (a few files parse
// faster than hundreds of modules); native and file-located packages stay external and load from node_modules at run
// time. Code splitting: what the three entries share, and each command that src/cli/commands.ts imports on use, is a
// chunk of its own beside them (dist/chunk-<hash>.mjs), so `chainsim --help` parses commander and the command table
// only, and a command parses only its own code (issue #28 §4). Run by `npm ci` (the root package's `prepare`) and `npm run build`; bin/chainsim.js falls back to the
// sources through tsx when the bundle is missing or any of its inputs (dist/chainsim.inputs.json) is newer.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
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
rmSync(list, { force: true });
// An earlier build's chunks (named by their contents) would pile up.
mkdirSync(outdir, { recursive: true });
for (const name of readdirSync(outdir).filter((n) => CHUNK.test(n))) rmSync(`${outdir}/${name}`);
const startedMs = Date.now();
const result = await build({
  entryPoints: {
    chainsim: "src/cli/main.ts",
    "explore-worker": "src/explore/worker.ts",
    "check-worker": "src/cli/check-worker.ts",
  },
  absWorkingDir: root,
  outdir,
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

// Every file the three entries and their chunks were built from (esbuild's metafile: the sources under src/, properties/, models/,
// the scenario schema's inputs, and the bundled dependencies' files), relative to the repository: bin/chainsim.js
// runs the bundle only when none of them is newer than this list (or missing). Written last and atomically, so a
// failed or interrupted build leaves no list and the CLI runs from the sources. `startedMs`: an input modified
// after the build started may be missing from the bundle.
const inputs = Object.keys(result.metafile.inputs).sort();
writeFileSync(`${list}.tmp`, `${JSON.stringify({ startedMs, inputs })}\n`);
renameSync(`${list}.tmp`, list);
