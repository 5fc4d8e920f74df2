import { describe, expect, it } from "vitest";
import type { LogLine } from "../core/context.js";
import { type CommandData, runCommand } from "./commands.js";
import { conformance } from "./conformance.js";
import { Session } from "./session.js";

/** Runs `commands` on a session of the standard world (seed 5). */
function session(commands: readonly CommandData[]): Session {
  const s = new Session({ seed: 5 });
  for (const c of commands) runCommand(s, c, undefined);
  return s;
}

/** v2 scheduled by the authority and reached: every validator halts without the handler. */
const reachV2: CommandData[] = [
  { kind: "emergency-upgrade", name: "v2", offset: 2 },
  { kind: "advance-to-plan", delta: 0 },
];

/** What a node would print if its logger lost a line's level or text: the same lines, one of them blanked. */
const blank = (lines: readonly LogLine[], message: string, field: "level" | "message"): LogLine[] =>
  lines.map((l) => (l.message === message ? { ...l, [field]: "" } : l));

describe("model-agreement reads the x/upgrade log lines the model implies", () => {
  it("agrees on a real upgrade: each halted node's UPGRADE NEEDED error line, then the applying line", () => {
    const s = session([...reachV2, { kind: "swap-all", binary: "v2" }, { kind: "advance", blocks: 2 }]);
    expect(s.sim.halts.map((h) => h.kind)).toContain("upgrade-needed");
    expect(s.upgradeLines.map((u) => u.line.message)).toEqual([
      expect.stringMatching(/^applying upgrade "v2" at height: \d+$/),
    ]);
    expect(conformance(s)).toEqual([]);
  });

  it("reports an applying line that is missing from the upgrade block, or written at another level", () => {
    const s = session([...reachV2, { kind: "swap-all", binary: "v2" }, { kind: "advance", blocks: 2 }]);
    const { height, line } = s.upgradeLines[0]!;
    const logs = s.sim.blockLogs as Map<number, readonly LogLine[]>;
    const kept = logs.get(height)!;
    for (const field of ["level", "message"] as const) {
      logs.set(height, blank(kept, line.message, field));
      expect(conformance(s), field).toEqual([
        `log lines at ${height}: model ${JSON.stringify(line)} not among chain ${JSON.stringify(logs.get(height))}`,
      ]);
    }
    logs.set(height, kept);
    expect(conformance(s)).toEqual([]);
  });

  it("reports a halt whose last line is not its UPGRADE NEEDED message at level error", () => {
    const s = session(reachV2);
    const halt = s.sim.halts[0]!;
    expect(halt.logs.at(-1)).toEqual({ level: "error", module: "x/upgrade", message: halt.message });
    (halt as { logs: readonly LogLine[] }).logs = blank(halt.logs, halt.message, "level");
    expect(conformance(s)).toEqual([
      `halt of ${halt.node} at ${halt.height}: last log line: model ${JSON.stringify({
        level: "error",
        module: "x/upgrade",
        message: halt.message,
      })} chain ${JSON.stringify({ level: "", module: "x/upgrade", message: halt.message })}`,
    ]);
  });
});
