import { conformance } from "./conformance.js";
import type { Session } from "./session.js";

/**
 * The properties, named by what must always or eventually hold. `always` properties are checked after every
 * command; `end` properties once, after the last command (the liveness phase and the replay).
 */
export const PROPERTIES = {
  "run-once": "always: a handler's effects are committed at most once per plan name",
  "correct-height":
    "always: a handler runs only in the block at the plan's due height, and the done marker holds that height",
  "graceful-halt":
    "always: a node without the handler halts at the due height with the exact message, writes upgrade-info.json with that height, and no block at or past a due plan is committed by a binary without the handler",
  "early-swap-halts": "always: a binary with the handler halts before the height with the exact message",
  "cancel-effective": "always: a plan cleared by a cancel that executed before the height never runs",
  "latest-schedule-wins": "always: of two passed schedules, the one that executes later wins, in (end time, id) order",
  "schedule-checks": "always: a plan in the past fails its proposal, and a completed name can't be scheduled again",
  liveness:
    "eventually: once nodes with more than 2/3 of the power run a binary with the handler, the chain passes the upgrade height",
  determinism: "always: replaying the recorded commands gives the same trace hash",
  "model-agreement": "always: the model and the chain agree",
} as const;

export type PropertyName = keyof typeof PROPERTIES;
export const PROPERTY_NAMES = Object.keys(PROPERTIES) as PropertyName[];

/** A property violation: which property, and a readable account of what broke. */
export class Violation extends Error {
  constructor(
    readonly property: PropertyName,
    readonly detail: string,
  ) {
    super(`${property}: ${detail}`);
  }
}

type Plan = { readonly name: string; readonly height: number; readonly info: string };

const neededMsg = (p: Plan) => `UPGRADE "${p.name}" NEEDED at height: ${p.height}: ${p.info}`;
const EARLY_MSG = (name: string) =>
  `BINARY UPDATED BEFORE TRIGGER! UPGRADE "${name}" - in binary but not executed on chain. Downgrade your binary`;

/** Which binaries have a handler for a plan name (from the world document). */
function handlerBinaries(s: Session, plan: string): Set<string> {
  return new Set(
    Object.entries(s.doc.binaries)
      .filter(([, b]) => Object.hasOwn(b.upgrades ?? {}, plan))
      .map(([n]) => n),
  );
}

/** The height at which a plan scheduled in block `scheduledAt` is due: it is checked from the next PreBlock on. */
const dueHeight = (p: Plan, scheduledAt: number) => Math.max(p.height, scheduledAt + 1);

/** Checks every enabled `always` property; throws a Violation for the first that fails. */
export function checkAlways(s: Session, enabled: ReadonlySet<PropertyName>): void {
  const sim = s.sim;
  if (enabled.has("run-once")) {
    for (const [name, n] of sim.handlerRuns)
      if (n > 1) throw new Violation("run-once", `handler of "${name}" committed ${n} times`);
  }
  // Walk the committed blocks once, tracking when the current plan was scheduled.
  let scheduledAt = 0;
  let prevPlanKey = "null";
  for (const b of s.blocks) {
    const key = JSON.stringify(b.planBefore);
    if (key !== prevPlanKey) {
      prevPlanKey = key;
      scheduledAt = b.height - 1;
    }
    const p = b.planBefore;
    if (b.applied !== null) {
      if (enabled.has("correct-height")) {
        if (p === null || p.name !== b.applied)
          throw new Violation(
            "correct-height",
            `block ${b.height} ran the handler of "${b.applied}" but the plan was ${JSON.stringify(p)}`,
          );
        if (b.height !== dueHeight(p, scheduledAt))
          throw new Violation(
            "correct-height",
            `handler of "${p.name}" ran at ${b.height}, due at ${dueHeight(p, scheduledAt)}`,
          );
        const done = sim.committed()?.applied.get(b.applied);
        if (done !== undefined && done !== b.height && (sim.handlerRuns.get(b.applied) ?? 0) === 1)
          throw new Violation(
            "correct-height",
            `done marker of "${b.applied}" holds ${done}, handler ran at ${b.height}`,
          );
      }
      if (enabled.has("cancel-effective") && p === null)
        throw new Violation("cancel-effective", `block ${b.height} applied "${b.applied}" with no plan scheduled`);
    }
    // A block at or past a due plan commits only by applying it (a binary with the handler) or skipping it.
    if (enabled.has("graceful-halt") && p !== null && b.height >= dueHeight(p, scheduledAt)) {
      if (b.applied === null && b.skipped === null)
        throw new Violation(
          "graceful-halt",
          `block ${b.height} was committed past due plan "${p.name}" (due ${dueHeight(p, scheduledAt)}) by binaries without its handler`,
        );
    }
  }
  if (enabled.has("graceful-halt") || enabled.has("early-swap-halts")) {
    // upgrade-info.json holds the latest dump, so each node's LATEST upgrade-needed halt is checked against it.
    const latestNeeded = new Map<string, (typeof sim.halts)[number]>();
    for (const h of sim.halts) {
      if (h.kind === "upgrade-needed") latestNeeded.set(h.node, h);
      if (h.kind === "upgrade-needed" && enabled.has("graceful-halt")) {
        const m = /^UPGRADE "(.*)" NEEDED at height: (-?\d+): (.*)$/s.exec(h.message);
        if (m === null) throw new Violation("graceful-halt", `malformed halt message ${JSON.stringify(h.message)}`);
        if (neededMsg({ name: m[1]!, height: Number(m[2]), info: m[3]! }) !== h.message)
          throw new Violation("graceful-halt", `halt message ${JSON.stringify(h.message)} is not the reference text`);
      }
      if (h.kind === "binary-too-early" && enabled.has("early-swap-halts")) {
        const name = /UPGRADE "(.*)" - in binary/s.exec(h.message)?.[1] ?? "";
        if (h.message !== EARLY_MSG(name))
          throw new Violation(
            "early-swap-halts",
            `halt message ${JSON.stringify(h.message)} is not the reference text`,
          );
      }
    }
    if (enabled.has("graceful-halt")) {
      for (const [node, h] of latestNeeded) {
        const name = /^UPGRADE "(.*)" NEEDED/s.exec(h.message)?.[1];
        const info = sim.host.readUpgradeInfo(sim.nodeState(node)!);
        if (info.kind !== "ok" || info.name !== name || info.height !== h.height)
          throw new Violation(
            "graceful-halt",
            `${node} halted at ${h.height} for "${name}" but upgrade-info.json holds ${JSON.stringify(info)}`,
          );
      }
    }
  }
  if (enabled.has("early-swap-halts")) {
    // A node that committed a block while a plan was pending and not yet due must not run a binary with its handler.
    let at = 0;
    let key = "null";
    for (const b of s.blocks) {
      const k = JSON.stringify(b.planBefore);
      if (k !== key) {
        key = k;
        at = b.height - 1;
      }
      const p = b.planBefore;
      if (p === null || b.height >= dueHeight(p, at)) continue;
      const handlers = handlerBinaries(s, p.name);
      for (const [node, bin] of b.committerBinaries) {
        if (handlers.has(bin))
          throw new Violation(
            "early-swap-halts",
            `${node} ran ${bin} (handler for "${p.name}") and committed block ${b.height} before the plan height ${p.height}`,
          );
      }
    }
  }
  if (enabled.has("cancel-effective") || enabled.has("latest-schedule-wins") || enabled.has("schedule-checks")) {
    for (const e of s.execs) {
      const planAfter = s.planAfter(e.height);
      if (!e.ok) {
        if (enabled.has("schedule-checks")) {
          for (const m of e.msgs) {
            if (m.type !== "softwareUpgrade") continue;
            const expected =
              m.height < e.height && m.height > 0
                ? "upgrade cannot be scheduled in the past: invalid request"
                : undefined;
            if (expected !== undefined && e.error !== null && !e.error.includes(expected))
              throw new Violation(
                "schedule-checks",
                `plan ${m.name}@${m.height} at ${e.height} failed with ${JSON.stringify(e.error)}`,
              );
          }
        }
        continue;
      }
      const last = e.msgs[e.msgs.length - 1];
      if (enabled.has("schedule-checks")) {
        for (const m of e.msgs) {
          if (m.type !== "softwareUpgrade") continue;
          if (m.height < e.height)
            throw new Violation(
              "schedule-checks",
              `plan ${m.name}@${m.height} in the past was accepted at height ${e.height}`,
            );
          const doneBefore = s.appliedBefore(m.name, e.height);
          if (doneBefore)
            throw new Violation(
              "schedule-checks",
              `completed name "${m.name}" was scheduled again at height ${e.height}`,
            );
        }
      }
      if (s.lastExecOfBlock(e) && last !== undefined) {
        if (last.type === "cancelUpgrade" && enabled.has("cancel-effective") && planAfter !== null)
          throw new Violation(
            "cancel-effective",
            `a cancel executed at ${e.height} but plan ${JSON.stringify(planAfter)} remains`,
          );
        if (last.type === "softwareUpgrade" && enabled.has("latest-schedule-wins")) {
          const want = { name: last.name, height: last.height };
          if (planAfter === null || planAfter.name !== want.name || planAfter.height !== want.height)
            throw new Violation(
              "latest-schedule-wins",
              `the last schedule at ${e.height} was ${JSON.stringify(want)} but the plan is ${JSON.stringify(planAfter)}`,
            );
        }
      }
    }
  }
  if (enabled.has("model-agreement")) {
    const diff = conformance(s);
    if (diff.length > 0) throw new Violation("model-agreement", diff.join("; "));
  }
}
