/**
 * The import rules of chainsim (`npm run deps:check`). Layers from the bottom; a folder may import its own layer's
 * folders (without a cycle) and any layer below it, never one above:
 *
 *   0  src/core, src/gen        shared vocabulary (heights, bytes, errors, Go compatibility, KVStore, VersionMap),
 *                               and the generated protobuf code
 *   1  src/store                versioned multistore
 *   2  src/bank, src/gov, src/upgrade   the modules
 *   3  src/app                  a node's application and the app host
 *   4  src/chain                the chain engine
 *   5  src/api                  the query pipeline (gateway, services, backends, JSON, statuses): pure, in-process;
 *                               below scenario because a scenario's `query` step runs it
 *   6  src/scenario             scenario files, their simulation and expectations
 *   7  src/harness, src/explore, src/server, src/rehearse   property harness, cancel-window explorer, the network
 *                               edge (the REST and gRPC listeners and app.toml over the query pipeline), and the
 *                               importer's deterministic core (reading a live node through an injected fetcher)
 *   8  src/report, src/devnet   the HTML report, the live devnet node
 *   9  src/cli                  the `chainsim` command
 *
 * Beside the layers: `models/` (the oracle, written independently) imports only src/core, and the harness and the
 * layers above it import it; `properties/` imports the harness and below (not the network edge), and the layers
 * above the harness import it (the cli hands the registry to the harness); `src/node` (the host file system, an I/O
 * edge) imports only src/core, and only the I/O edges (src/server, src/devnet, src/cli) import it; `src/faults`
 * (planted bugs as hooks) sits with the chain.
 * Production code (src, models, properties) never imports test kits (`test/`). No cycles anywhere.
 *
 * The layer table and the list of I/O edges live in lint/layers.cjs; test/lint-boundary.test.ts checks that the
 * determinism lint ban (biome.json) exempts exactly those edges and covers every other source file.
 */

const { LAYERS, EDGES } = require("./lint/layers.cjs");

/** models/ (the oracle) is there to check the chain: the harness and the layers above it may import it. */
const HARNESS = LAYERS.findIndex(([name]) => name === "harness");

const dirs = (names) => `^src/(${names.join("|")})/`;
const below = (i) => LAYERS.slice(0, i + 1).flatMap(([, d]) => d);

const layerRules = LAYERS.map(([name, folders], i) => ({
  name: `layer-${name}`,
  comment: `src/{${folders.join(",")}} imports only its layer and those below: ${below(i).join(", ")} (and src/node if an I/O edge)`,
  severity: "error",
  from: { path: dirs(folders), pathNot: "\\.test\\.ts$" },
  to: {
    path: "^(src|models|properties|test|bench|scripts)/",
    pathNot: [
      dirs([...below(i), ...(folders.some((f) => EDGES.includes(f)) ? ["node"] : [])]),
      ...(i >= HARNESS ? ["^models/"] : []),
      ...(i > HARNESS ? ["^properties/"] : []),
    ],
  },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: "no-circular",
      comment: "Imports never form a cycle, type-only imports included.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "node-is-an-edge",
      comment: "src/node (the host file system) imports only src/core.",
      severity: "error",
      from: { path: "^src/node/" },
      to: { path: "^(src|models|properties|test)/", pathNot: "^src/(core|node)/" },
    },
    {
      name: "models-import-only-core",
      comment: "The oracle in models/ is written independently of the implementation: it imports only src/core.",
      severity: "error",
      from: { path: "^models/" },
      to: { path: "^(src|properties|test|bench|scripts)/", pathNot: "^src/core/" },
    },
    {
      name: "properties-import-harness-and-below",
      comment: "properties/ imports the harness and the layers below it, never the report, devnet or cli.",
      severity: "error",
      from: { path: "^properties/", pathNot: "\\.test\\.ts$" },
      to: {
        path: "^(src|test|bench|scripts)/",
        pathNot: [dirs(below(HARNESS).filter((d) => !EDGES.includes(d))), "^models/"],
      },
    },
    {
      name: "no-test-kits-in-production",
      comment: "Production code (src, models, properties) never imports tests or test kits.",
      severity: "error",
      from: { path: "^(src|models|properties)/", pathNot: "\\.test\\.ts$" },
      to: { path: "(^test/|\\.test\\.ts$)" },
    },
    {
      name: "no-host-io-in-pure-code",
      comment: "Outside the I/O edges, source code does not import the network, the file system or processes.",
      severity: "error",
      from: { path: "^(src|models|properties)/", pathNot: [`^src/(${EDGES.join("|")})/`, "\\.test\\.ts$"] },
      to: {
        dependencyTypes: ["core"],
        path: "^(node:)?(fs|fs/promises|http|http2|https|net|tls|dgram|child_process|cluster|os|process|worker_threads)$",
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^node_modules/|^reports/)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
