import { HOLDS, type Property, violated } from "../src/harness/property.js";
import type { SessionView } from "../src/harness/session-view.js";

/** The PreBlocker's halt text for a due plan without a handler (reference x/upgrade/abci.go, BuildUpgradeNeededMsg). */
const neededMessage = (name: string, height: number, info: string) =>
  `UPGRADE "${name}" NEEDED at height: ${height}: ${info}`;
const NEEDED = /^UPGRADE "(.*)" NEEDED at height: (-?\d+): (.*)$/s;

/**
 * A binary without the handler of a due plan stops the chain cleanly at the plan's height: its PreBlocker halts
 * with the reference message, dumps upgrade-info.json (the plan name and the halt height) for the upgrade
 * manager, and never commits the block. So every block at or past a due plan applied it or skipped it, and each
 * node's latest upgrade-needed halt is what its upgrade-info.json holds.
 */
export const gracefulHalt: Property = {
  name: "graceful-halt",
  statement:
    "always: a node without the handler halts at the due height with the exact message, writes upgrade-info.json with that height, and no block at or past a due plan is committed by a binary without the handler",
  kind: "always",
  catches: ["missed-halt"],
  check(s) {
    for (const { block: b, plan: p, dueAt } of s.blocksWithPlan()) {
      if (p === null || dueAt === null || b.height < dueAt) continue;
      if (b.applied === null && b.skipped === null)
        return violated(
          `block ${b.height} was committed past due plan "${p.name}" (due ${dueAt}) by binaries without its handler`,
        );
    }
    return haltsMatchUpgradeInfo(s);
  },
};

function haltsMatchUpgradeInfo(s: SessionView) {
  const sim = s.sim;
  // upgrade-info.json holds the latest dump, so each node's LATEST upgrade-needed halt is checked against it.
  const latestNeeded = new Map<string, (typeof sim.halts)[number]>();
  for (const h of sim.halts) {
    if (h.kind !== "upgrade-needed") continue;
    latestNeeded.set(h.node, h);
    const m = NEEDED.exec(h.message);
    if (m === null) return violated(`malformed halt message ${JSON.stringify(h.message)}`);
    if (neededMessage(m[1]!, Number(m[2]), m[3]!) !== h.message)
      return violated(`halt message ${JSON.stringify(h.message)} is not the reference text`);
  }
  for (const [node, h] of latestNeeded) {
    const name = NEEDED.exec(h.message)?.[1];
    const info = sim.host.readUpgradeInfo(sim.nodeState(node)!);
    if (info.kind !== "ok" || info.name !== name || info.height !== h.height)
      return violated(
        `${node} halted at ${h.height} for "${name}" but upgrade-info.json holds ${JSON.stringify(info)}`,
      );
  }
  return HOLDS;
}
