import { describe, expect, it } from "vitest";
import { runCli } from "../../test/kit/cli.js";
import { TX_COMMANDS } from "./devnet-tx.js";
import { buildProgram } from "./main.js";
import { UPGRADE_QUERY_COMMANDS } from "./query.js";

/**
 * Walks the whole command tree: `--help` on every command and subcommand exits 0 with a usage text, every command is
 * listed in its parent's help, and no help cites a file outside the repository. Then the two families' conventions:
 * bad flags exit 2 (simulator commands) or 1 with cobra's `Error: ` (node-style commands), and each family's
 * machine-output flag.
 */
/** A citation of the design notes outside the repository: a parent folder's notes, a spec section, a bare `x.md` one. */
const OUTSIDE_CITATION = /\.\.\/sha[r]ed|spec \u00a7|(?<![\w/.-])[a-z-]+\.md \u00a7/;

const cli = (...argv: string[]) => runCli(argv);

/** Every command path, and the words its help must list (its children). */
async function commandTree(): Promise<Map<string, readonly string[]>> {
  const tree = new Map<string, readonly string[]>();
  const program = await buildProgram(() => {});
  const top = program.commands.map((c) => c.name());
  tree.set("", top);
  for (const c of program.commands) {
    tree.set(
      c.name(),
      c.commands.map((s) => s.name()),
    );
    for (const s of c.commands) tree.set(`${c.name()} ${s.name()}`, []);
  }
  tree.set("query", ["gov", "upgrade"]);
  tree.set("query upgrade", UPGRADE_QUERY_COMMANDS);
  for (const n of UPGRADE_QUERY_COMMANDS) tree.set(`query upgrade ${n}`, []);
  tree.set("query gov", ["proposal"]);
  tree.set("query gov proposal", []);
  const txGroups = [...new Set(TX_COMMANDS.map((c) => c.path[0]!))];
  tree.set("tx", txGroups);
  for (const g of txGroups) {
    const leaves = TX_COMMANDS.filter((c) => c.path[0] === g).map((c) => c.path[1]!);
    tree.set(`tx ${g}`, leaves);
    for (const l of leaves) tree.set(`tx ${g} ${l}`, []);
  }
  return tree;
}

const tree = await commandTree();

describe("the command tree", () => {
  it("has the node-style and simulator commands at the top", () => {
    expect([...tree.get("")!].sort()).toEqual(
      [
        "all",
        "check",
        "explore",
        "import",
        "init",
        "keys",
        "preflight",
        "query",
        "report",
        "run",
        "serve",
        "start",
        "tx",
        "visor",
      ].sort(),
    );
  });

  it("answers --help on every command and subcommand, listing each child, citing no file outside the repository", async () => {
    for (const [path, children] of tree) {
      const words = path === "" ? [] : path.split(" ");
      const r = await cli(...words, "--help");
      expect({ path, code: r.code, err: r.err }).toEqual({ path, code: 0, err: "" });
      expect(r.out, path).toMatch(/Usage:/);
      for (const child of children) expect(r.out, `${path} lists ${child}`).toMatch(new RegExp(`^ +${child}\\b`, "m"));
      expect(r.out, path).not.toMatch(OUTSIDE_CITATION);
      // -h is the same
      if (words.length > 0) expect((await cli(...words, "-h")).code, `${path} -h`).toBe(0);
    }
  });

  it("simulator commands take --json; a bad flag exits 2", async () => {
    for (const path of ["run", "check", "all", "explore cancel-window", "serve", "report", "import", "preflight"]) {
      const words = path.split(" ");
      expect((await cli(...words, "--help")).out, path).toContain("--json");
      expect((await cli(...words, "--no-such-flag")).code, path).toBe(2);
    }
    expect((await cli("explore", "cancel-window", "--json", "--format", "csv")).err).toContain(
      "--json: conflicts with --format csv",
    );
  });

  it("node-style commands take -o/--output and fail bad flags with cobra's `Error: ` line, exit 1", async () => {
    const leaves = [
      ["query", "upgrade", "plan"],
      ["query", "gov", "proposal", "1"],
      ["tx", "gov", "vote", "1", "yes"],
      ["tx", "upgrade", "software-upgrade", "v2"],
      ["init"],
      ["start"],
      ["visor"],
    ];
    for (const words of leaves) {
      const r = await cli(...words, "--no-such-flag");
      expect({ words, code: r.code, err: r.err }).toEqual({
        words,
        code: 1,
        err: "Error: unknown flag: --no-such-flag\n",
      });
    }
    for (const words of [["query", "upgrade", "plan"], ["query", "gov", "proposal"], ["tx", "gov", "vote"], ["start"]])
      expect((await cli(...words, "--help")).out, words.join(" ")).toMatch(/-o, --output/);
    // init keeps the reference's `-o, --overwrite`; its output format has the long name only
    const init = (await cli("init", "--help")).out;
    expect(init).toMatch(/-o, --overwrite/);
    expect(init).toMatch(/ {6}--output/);
    expect((await cli("start", "--binary", "v1", "--output", "yaml")).err).toBe(
      'Error: invalid argument "yaml" for "-o, --output" flag: expected text or json\n',
    );
  });

  it("query upgrade accepts --home, as tx does", async () => {
    const r = await cli("query", "upgrade", "plan", "--home", "/nonexistent-home", "--node", "http://127.0.0.1:1");
    expect(r.code).toBe(1);
    expect(r.err).not.toContain("unknown flag");
  });
});
