import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "./main.js";

/** Runs `chainsim <argv>` in-process: its exit status and what it wrote on stderr. */
async function chainsim(...argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  try {
    return { code: await main(argv), stderr };
  } finally {
    spy.mockRestore();
  }
}
afterEach(() => vi.restoreAllMocks());

describe("a bad flag to a simulator command", () => {
  it.each([["run"], ["check"], ["all"], ["explore", "cancel-window"], ["serve"], ["report"]])(
    "chainsim %s: one line naming the flag and where to read more, exit 2",
    async (...cmd: string[]) => {
      const r = await chainsim(...cmd, "--bogus");
      expect(r).toEqual({
        code: 2,
        stderr: `error: unknown option '--bogus'; see 'chainsim ${cmd.join(" ")} --help'\n`,
      });
    },
  );

  it("a missing argument and an unknown command get the same one line", async () => {
    expect(await chainsim("run")).toEqual({
      code: 2,
      stderr: "error: missing required argument 'paths'; see 'chainsim run --help'\n",
    });
    expect(await chainsim("bogus")).toEqual({
      code: 2,
      stderr: "error: unknown command 'bogus'; see 'chainsim --help'\n",
    });
  });

  it("leaves the node-style commands their cobra texts", async () => {
    expect(await chainsim("init", "--bogus")).toMatchObject({ code: 1, stderr: "Error: unknown flag: --bogus\n" });
  });
});
