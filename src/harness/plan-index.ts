import type { BlockRecord } from "./session-records.js";

/**
 * When the committed plan of each block was scheduled and the height at which it is due, computed one way for every
 * property (through `SessionView.blocksWithPlan`). `PlanIndex` keeps one session's annotations, extended as it grows.
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

const samePlan = (a: PlanRecord | null, b: PlanRecord | null): boolean =>
  a === b || (a !== null && b !== null && a.name === b.name && a.height === b.height && a.info === b.info);

/**
 * The committed blocks of one session annotated with their plans (`SessionView.blocksWithPlan`): extended as the
 * session grows (the `always` properties ask after every command), not recomputed, since a block's plan and due
 * height depend only on the blocks before it, and blocks are only ever appended.
 */
export class PlanIndex {
  readonly #list: BlockWithPlan[] = [];
  #scheduledAt = 0;

  /** An independent copy (a forked session's): the annotations so far, extended separately from here on. */
  clone(): PlanIndex {
    const c = new PlanIndex();
    c.#list.push(...this.#list);
    c.#scheduledAt = this.#scheduledAt;
    return c;
  }

  /** The annotations of `blocks` (the session's blocks, a list that only grows). */
  extend(blocks: readonly BlockRecord[]): readonly BlockWithPlan[] {
    for (let i = this.#list.length; i < blocks.length; i++) {
      const b = blocks[i]!;
      const before = i === 0 ? undefined : blocks[i - 1]!;
      // A plan differing from the one before the previous block was scheduled in it; so was any plan after a block
      // that cleared its plan (skipped or applied it), even one equal to the cleared plan: a coordinated skip whose
      // block also carries the authority's schedule of the same plan at that height (due at the next block).
      const cleared = before !== undefined && (before.skipped !== null || before.applied !== null);
      if (cleared || !samePlan(b.planBefore, before?.planBefore ?? null)) this.#scheduledAt = b.height - 1;
      const p = b.planBefore;
      this.#list.push({ block: b, plan: p, dueAt: p === null ? null : dueHeight(p, this.#scheduledAt) });
    }
    return this.#list;
  }
}
