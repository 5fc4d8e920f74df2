// The top-level commands, each loaded only when it runs (docs/performance.md "Start-up"). main.ts builds the program
// with every command that the arguments do not reach as a stub: its name and its line in `chainsim --help`, nothing
// else. The modules behind a command (the engine, the harness, the servers, the devnet node) are imported only when
// that command is dispatched or its own help is asked for, so `chainsim --help`, `--version` and a bad top-level
// flag load commander and this table. In the pre-built CLI each `import()` below is a chunk of its own
// (scripts/build-cli.mjs, esbuild's code splitting).
//
// 1. A stub's listing (term and description) is what commander prints for the real command; the test
//    commands.test.ts compares `chainsim --help` from stubs with the help of the fully loaded program.
// 2. A stub reached by dispatch or by its own help throws StubReached before anything is written; main.ts then
//    loads that entry and parses the same arguments again.
import type { Command } from "commander";

/** What every command writes through: one line to stdout or stderr. */
export interface CliIo {
  readonly out: (s: string) => boolean;
  readonly err: (s: string) => boolean;
}

/** Adds a loaded entry's real commands to the program. */
type Register = (program: Command, io: CliIo, setExit: (code: number) => void) => void;

/** One top-level command as `chainsim --help` lists it: `run [options] <paths...>` and its description. */
export interface Listing {
  readonly term: string;
  readonly description: string;
}

/** One module's top-level commands (check registers `check` and `all`), in the order of the help. */
export interface CommandEntry {
  readonly listings: readonly Listing[];
  readonly load: () => Promise<Register>;
}

/** Thrown when the parse reaches a stub: main.ts loads `entry` and parses again. */
export class StubReached extends Error {
  constructor(readonly entry: CommandEntry) {
    super(`command module not loaded: ${entry.listings.map((l) => l.term).join(", ")}`);
  }
}

const listing = (term: string, description: string): Listing => ({ term, description });

/** The simulator and node-style commands, in the order `chainsim --help` lists them (query follows, in main.ts). */
export const COMMANDS: readonly CommandEntry[] = [
  {
    listings: [
      listing(
        "run [options] <paths...>",
        "replay scenario files (or directories of them) and check their expectations",
      ),
    ],
    load: async () => (await import("./run.js")).registerRun,
  },
  {
    listings: [
      listing(
        "check [options]",
        "check the properties against the real chain with generated command sequences (exit 0 passed, 1 a property failed, 2 bad flags, 3 harness crash)",
      ),
      listing(
        "all [options]",
        "replay scenarios/, run the default property campaign and write the report (npm start); exit 0 all passed, 1 a scenario or property failed, 2 bad flags or scenario files, 3 harness crash",
      ),
    ],
    load: async () => (await import("./check.js")).registerCheck,
  },
  {
    listings: [listing("explore", "explore a question by Monte Carlo runs of the chain engine")],
    load: async () => {
      const [{ registerExplore }, { registerUpgradeHeight }] = await Promise.all([
        import("./explore.js"),
        import("./explore-height.js"),
      ]);
      return (program, io, setExit) => registerUpgradeHeight(registerExplore(program, io, setExit), io, setExit);
    },
  },
  {
    listings: [
      listing(
        "preflight [options]",
        "check a proposed upgrade against an imported profile before submitting it: timing against the voting and deposit periods, the cancel window, conflicts, the info's binaries, the operators' window (exit 0 no finding, 1 findings, 2 bad input)",
      ),
    ],
    load: async () => (await import("./preflight.js")).registerPreflight,
  },
  {
    listings: [
      listing(
        "report [options]",
        "rebuild a run's HTML report (<report-dir>/<run-id>/index.html) from its saved summary.json, scenarios.json and exploration; prints its path, and without --run-id which run it rebuilt (exit 0, 2 no such run or bad files)",
      ),
    ],
    load: async () => (await import("./report.js")).registerReport,
  },
  {
    listings: [
      listing(
        "serve [options] <scenario>",
        "run a scenario, then serve one node's state over REST and gRPC (per app.toml) until SIGINT/SIGTERM",
      ),
    ],
    load: async () => (await import("./serve.js")).registerServe,
  },
  {
    listings: [
      listing(
        "import [options]",
        "read a live node (CometBFT RPC and REST) into a rehearsal profile (docs/profile-format.md); exit 0 written, 2 bad flag or --out, 4 node unreachable, 5 unusable answer",
      ),
    ],
    load: async () => (await import("./import.js")).registerImport,
  },
  {
    listings: [
      listing(
        "init [args...]",
        "Initialize a devnet home: app.toml, genesis (short gov periods), binaries and a test keyring",
      ),
    ],
    load: async () => (await import("./devnet-init.js")).registerDevnetInit,
  },
  {
    listings: [
      listing(
        "start [args...]",
        "Run a devnet node: wall-clock blocks, LevelDB state under data/, REST and gRPC per app.toml",
      ),
    ],
    load: async () => (await import("./devnet-start.js")).registerDevnetStart,
  },
  {
    listings: [listing("tx [args...]", "Transactions subcommands")],
    load: async () => (await import("./devnet-tx.js")).registerDevnetTx,
  },
  {
    listings: [listing("keys [args...]", "Manage the test keyring of a devnet home")],
    load: async () => (await import("./devnet-keys.js")).registerDevnetKeys,
  },
  {
    listings: [
      listing(
        "visor [args...]",
        "Supervise a devnet node like cosmovisor: restart it with the upgrade's binary when it halts for an upgrade",
      ),
    ],
    load: async () => (await import("./devnet-visor.js")).registerDevnetVisor,
  },
];

/** The command name a listing's term starts with (`run` of `run [options] <paths...>`). */
const nameOf = (l: Listing): string => l.term.split(/[ |]/, 1)[0]!;

/** Each stub's entry and listing. */
const stubs = new WeakMap<Command, { readonly entry: CommandEntry; readonly listing: Listing }>();

/** The listing of `cmd` when it is a stub (for the program's help); undefined for a real command. */
export const stubListing = (cmd: Command): Listing | undefined => stubs.get(cmd)?.listing;

/** The entry whose stub is `cmd`; undefined for a real command. */
export const stubEntry = (cmd: Command): CommandEntry | undefined => stubs.get(cmd)?.entry;

/**
 * Adds `entry`'s commands to `program` as stubs: named and listed, but reaching one (dispatch, or its own help)
 * throws StubReached before it writes anything.
 */
export function addStubs(program: Command, entry: CommandEntry): void {
  for (const listing of entry.listings) {
    const stub = program.command(nameOf(listing)).description(listing.description);
    stubs.set(stub, { entry, listing });
    stub.helpInformation = () => {
      throw new StubReached(entry);
    };
  }
}
