import { HOLDS, type Property, type Verdict, violated } from "../src/harness/property.js";
import type { Session } from "../src/harness/session.js";
import { VALIDATORS } from "../src/harness/world.js";

/** Blocks the liveness phase allows the healed chain to pass the plan height. */
export const LIVENESS_BLOCKS = 30;

/** Handler sets of the world's healthy binaries, in preference order. */
const HEALTHY: readonly (readonly [string, readonly string[]])[] = [
  ["v1", []],
  ["v2", ["v2"]],
  ["v3-only", ["v3"]],
  ["v3", ["v2", "v3"]],
];

/**
 * eventually-liveness, the operator's runbook, in rounds, on a core of validators holding more than 2/3 of the
 * power (the fourth validator is left as the run left it): each core validator (re)starts, with no skip heights, on the
 * binary the situation needs: one with the handlers of the upgrades already applied but not the pending one while
 * the plan is not yet due, then `v3` (every handler) for the plan's block. Governance keeps running meanwhile, so
 * a proposal passing during the heal is handled by the next round. With more than 2/3 of the power then running,
 * the chain must pass every plan it had and keep committing. Legitimate stalls are classified, not failed:
 * validators whose state diverged (app-hash-mismatch) cannot be healed by any binary.
 *
 * The heal drives the session: its steps are recorded, so a counterexample replays them.
 */
export const liveness: Property = {
  name: "liveness",
  statement:
    "eventually: once nodes with more than 2/3 of the power run a binary with the handler, the chain passes the upgrade height",
  kind: "end",
  catches: ["unanimous-consensus"],
  check: checkLiveness,
};

function checkLiveness(s: Session): Verdict {
  const sim = s.sim;
  // The core: validators with more than 2/3 of the power (3 of 4). The fourth is left as the run left it.
  const CORE = VALIDATORS.slice(0, 3);
  for (let round = 0; round < 6; round++) {
    for (const v of CORE) healNode(s, v);
    const plan = sim.committed()?.plan ?? null;
    if (plan !== null && sim.height + 1 < plan.height) s.advanceBlocks(plan.height - 1 - sim.height);
    else s.advanceBlocks(LIVENESS_BLOCKS);
    const open = sim.proposals.some((p) => p.status === "deposit_period" || p.status === "voting_period");
    const allRunning = CORE.every((v) => sim.nodeStatus(v)?.status === "running");
    if (!open && allRunning && (sim.committed()?.plan ?? null) === null) break;
  }
  for (const v of CORE) healNode(s, v);
  const start = sim.height;
  s.advanceBlocks(LIVENESS_BLOCKS);
  const total = VALIDATORS.length * 100;
  const running = VALIDATORS.filter((v) => sim.nodeStatus(v)?.status === "running").length * 100;
  if (3 * running <= 2 * total) {
    if (sim.halts.some((h) => h.kind === "app-hash-mismatch")) return HOLDS; // legitimate: diverged state cannot heal
    const reasons = VALIDATORS.map((v) => `${v}: ${sim.nodeStatus(v)?.status} on ${sim.nodeStatus(v)?.binary}`).join(
      ", ",
    );
    return violated(`after healing, only ${running} of ${total} power is running (${reasons})`);
  }
  const plan = sim.committed()?.plan ?? null;
  if (plan !== null && plan.height <= sim.height + 1)
    return violated(
      `with ${running} of ${total} power running, plan "${plan.name}" at ${plan.height} is still pending at height ${sim.height}`,
    );
  if (sim.height <= start)
    return violated(`with ${running} of ${total} power running the chain made no progress from ${start}`);
  return HOLDS;
}

/**
 * Brings one validator to the chain the way an operator would: restart it (no skip heights) on the binary its OWN
 * height calls for — the handlers of the upgrades applied at or below that height, plus the pending plan's handler
 * only once that plan is due at its next block — and repeat while catch-up stops it at an upgrade height.
 */
function healNode(s: Session, node: string): void {
  const sim = s.sim;
  for (let i = 0; i < 6; i++) {
    const st = sim.nodeStatus(node)!;
    const n = st.height;
    const done = sim.committed()?.applied ?? new Map<string, number>();
    const applied = [...done].filter(([, h]) => h <= n).map(([name]) => name);
    const plan = s.planAfter(n);
    const dueNext = plan !== null && plan.height <= n + 1;
    const fit = HEALTHY.find(
      ([, h]) => applied.every((a) => h.includes(a)) && (plan === null || h.includes(plan.name) === dueNext),
    );
    const binary = fit?.[0] ?? "v3";
    if (st.status === "running" && st.binary === binary && st.skip.length === 0) return;
    if (st.status === "running" && n === sim.height && st.skip.length === 0 && fit === undefined) return;
    s.act({ kind: "swapBinary", node, binary, skipUpgradeHeights: [] });
  }
}
