import { vi } from "vitest";
import { main } from "../../src/cli/main.js";

/** What one in-process `chainsim` invocation returned and wrote. */
export interface CliResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs `chainsim <argv>` in this process (src/cli/main.ts) with stdout and stderr captured, and restores both
 * streams afterwards, whatever main does.
 */
export async function runCli(argv: readonly string[]): Promise<CliResult> {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => {
    out += String(s);
    return true;
  });
  const e = vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => {
    err += String(s);
    return true;
  });
  try {
    const code = await main([...argv]);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
