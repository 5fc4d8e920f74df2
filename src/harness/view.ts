import { HOLDS, type Verdict } from "./property.js";
import type { BlockRecord } from "./session-records.js";
import type { SessionView } from "./session-view.js";

/**
 * Facts several properties derive from a session, computed one way for all of them: when the committed plan of a
 * block was scheduled, the height at which it is due, and which binaries of the world have a plan's handler; and
 * the cursor an incremental check keeps in its per-run state (`judgeNew`).
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

/** Which binaries of the world document have a handler for a plan name. */
export function handlerBinaries(s: SessionView, plan: string): Set<string> {
  return new Set(
    Object.entries(s.doc.binaries)
      .filter(([, b]) => Object.hasOwn(b.upgrades ?? {}, plan))
      .map(([n]) => n),
  );
}

/** How many items of a list that only grows an incremental check has found to hold (part of its per-run state). */
export interface Judged {
  held: number;
}

/** A cursor that has judged nothing yet: what a property's `init` puts in its state for each list it judges. */
export const nothingJudged = (): Judged => ({ held: 0 });

/**
 * Judges the items of `list` past `cursor` in order, advancing the cursor over each that holds, and returns the
 * first violation (or HOLDS). For checks run after every command over a list that only grows, whose items each
 * have a verdict that is final once the item is there (it reads only the item and facts of blocks already
 * committed): the same verdict as judging the whole list each time, since every earlier item held. A violating item
 * is judged again on the next call. A fresh cursor judges from scratch (properties/incremental.test.ts compares).
 */
export function judgeNew<T>(cursor: Judged, list: readonly T[], judge: (item: T) => Verdict): Verdict {
  for (; cursor.held < list.length; cursor.held++) {
    const v = judge(list[cursor.held]!);
    if (!v.holds) return v;
  }
  return HOLDS;
}
