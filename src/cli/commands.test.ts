import { Help } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runCli } from "../../test/kit/cli.js";
import { COMMANDS } from "./commands.js";
import { buildProgram } from "./main.js";

// The commands load on use (commands.ts): `chainsim --help` is printed from stubs, and must read exactly as the help
// of the program with every command loaded; a command reached through a stub runs as if it had been loaded from the
// start.
const cli = (...argv: string[]) => runCli(argv);
afterEach(() => vi.restoreAllMocks());

const full = await buildProgram(() => {});
const command = (name: string) => full.commands.find((c) => c.name() === name)!;

describe("commands loaded on use", () => {
  it("lists every loaded command with the term and description its stub shows, in the same order", () => {
    const help = new Help();
    const real = full.commands.map((c) => ({
      term: help.subcommandTerm(c),
      description: help.subcommandDescription(c),
    }));
    const stubs = COMMANDS.flatMap((e) => e.listings);
    expect(real.slice(0, stubs.length)).toEqual(stubs);
    expect(real.slice(stubs.length).map((l) => l.term)).toEqual(["query|q [args...]"]);
  });

  it("prints --help from stubs byte for byte as the fully loaded program does", async () => {
    for (const flag of ["--help", "-h"])
      expect(await cli(flag)).toEqual({ code: 0, out: full.helpInformation(), err: "" });
    expect((await cli("help")).out).toBe(full.helpInformation());
  });

  it("prints a command's help, asked either way, as its loaded definition does", async () => {
    for (const name of ["run", "check", "all", "explore", "serve", "report", "import", "preflight"]) {
      const want = command(name).helpInformation();
      for (const argv of [
        [name, "--help"],
        ["help", name],
      ])
        expect(await cli(...argv), argv.join(" ")).toEqual({ code: 0, out: want, err: "" });
    }
  });

  it("answers a bad top-level flag or an unknown command with one line, exit 2", async () => {
    expect(await cli("--no-such-flag")).toEqual({
      code: 2,
      out: "",
      err: "error: unknown option '--no-such-flag'; see 'chainsim --help'\n",
    });
    expect((await cli("rnu")).err).toBe("error: unknown command 'rnu'\n(Did you mean run?); see 'chainsim --help'\n");
    expect((await cli("--version")).out).toBe("0.1.0\n");
  });

  it("loads no command for --help, --version or a bad flag, and only the one a command line reaches", async () => {
    const loads = COMMANDS.map((e) => vi.spyOn(e, "load"));
    const loadedBy = async (...argv: string[]) => {
      for (const l of loads) l.mockClear();
      await cli(...argv);
      return COMMANDS.filter((_, i) => loads[i]!.mock.calls.length > 0).map((e) => e.listings[0]!.term.split(" ")[0]);
    };
    for (const argv of [["--help"], ["--version"], ["--bogus"], ["rnu"], ["help"], []])
      expect(await loadedBy(...argv), argv.join(" ")).toEqual([]);
    expect(await loadedBy("run", "--help")).toEqual(["run"]);
    expect(await loadedBy("help", "all")).toEqual(["check"]);
    expect(await loadedBy("explore", "cancel-window", "--help")).toEqual(["explore"]);
    expect(await loadedBy("tx", "--help")).toEqual(["tx"]);
  });

  it("runs a command reached through its stub, with its own flag errors", async () => {
    expect((await cli("run", "--no-such-flag")).code).toBe(2);
    const r = await cli("run", "scenarios/plan-at-current-height-fires-next-block.yaml", "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ passed: true });
  });
});
