import { build } from "esbuild";

/** Where the benches' bundled children go: inside the repository, so that their external packages resolve. */
const BUNDLE_DIR = "node_modules/.cache/chainsim-bench";

/**
 * `entry` (a bench/ file run as a child process) bundled as the CLI is (scripts/build-cli.mjs: same platform,
 * target, externals, banner), so the child runs the code users run, not the sources through tsx. Returns the path
 * of `<BUNDLE_DIR>/<name>.mjs`.
 */
export async function bundleForBench(entry: string, name: string): Promise<string> {
  const outfile = `${BUNDLE_DIR}/${name}.mjs`;
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: ["classic-level", "piscina", "swagger-ui-dist", "tsx", "tsx/*", "@grpc/*", "esbuild"],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: "warning",
  });
  return outfile;
}
