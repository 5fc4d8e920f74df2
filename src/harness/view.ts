import type { BlockRecord, Session } from "./session.js";

/**
 * Facts several properties derive from a session, computed one way for all of them: when the committed plan of a
 * block was scheduled, the height at which it is due, and which binaries of the world have a plan's handler.
 */

export type PlanRecord = NonNullable<BlockRecord["planBefore"]>;

/** The height at which a plan scheduled in block `scheduledAt` is due: it is checked from the next PreBlock on. */
export const dueHeight = (p: PlanRecord, scheduledAt: number): number => Math.max(p.height, scheduledAt + 1);

/** A committed block with the plan its PreBlocker saw and the height that plan is due (null: no plan). */
export interface BlockWithPlan {
  readonly block: BlockRecord;
  readonly plan: PlanRecord | null;
  readonly dueAt: number | null;
}

/** The committed blocks in order, each with the plan before it and that plan's due height. */
export function blocksWithPlan(s: Session): BlockWithPlan[] {
  const out: BlockWithPlan[] = [];
  let scheduledAt = 0;
  let prevKey = "null";
  for (const b of s.blocks) {
    const key = JSON.stringify(b.planBefore);
    if (key !== prevKey) {
      prevKey = key;
      scheduledAt = b.height - 1;
    }
    const p = b.planBefore;
    out.push({ block: b, plan: p, dueAt: p === null ? null : dueHeight(p, scheduledAt) });
  }
  return out;
}

/** Which binaries of the world document have a handler for a plan name. */
export function handlerBinaries(s: Session, plan: string): Set<string> {
  return new Set(
    Object.entries(s.doc.binaries)
      .filter(([, b]) => Object.hasOwn(b.upgrades ?? {}, plan))
      .map(([n]) => n),
  );
}
