import { HOLDS, type Verdict } from "./property.js";
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

const samePlan = (a: PlanRecord | null, b: PlanRecord | null): boolean =>
  a === b || (a !== null && b !== null && a.name === b.name && a.height === b.height && a.info === b.info);

/** Per session: the blocks annotated so far (blocks are only ever appended, and a record never changes). */
const annotated = new WeakMap<Session, { readonly list: BlockWithPlan[]; scheduledAt: number }>();

/**
 * The committed blocks in order, each with the plan before it and that plan's due height. Extended as the session
 * grows (the `always` properties ask after every command), not recomputed: a block's plan and due height depend
 * only on the blocks before it.
 */
export function blocksWithPlan(s: Session): readonly BlockWithPlan[] {
  let a = annotated.get(s);
  if (a === undefined) {
    a = { list: [], scheduledAt: 0 };
    annotated.set(s, a);
  }
  for (let i = a.list.length; i < s.blocks.length; i++) {
    const b = s.blocks[i]!;
    const before = i === 0 ? undefined : s.blocks[i - 1]!;
    // A plan differing from the one before the previous block was scheduled in it; so was any plan after a block
    // that cleared its plan (skipped or applied it), even one equal to the cleared plan: a coordinated skip whose
    // block also carries the authority's schedule of the same plan at that height (due at the next block).
    const cleared = before !== undefined && (before.skipped !== null || before.applied !== null);
    if (cleared || !samePlan(b.planBefore, before?.planBefore ?? null)) a.scheduledAt = b.height - 1;
    const p = b.planBefore;
    a.list.push({ block: b, plan: p, dueAt: p === null ? null : dueHeight(p, a.scheduledAt) });
  }
  return a.list;
}

/** Which binaries of the world document have a handler for a plan name. */
export function handlerBinaries(s: Session, plan: string): Set<string> {
  return new Set(
    Object.entries(s.doc.binaries)
      .filter(([, b]) => Object.hasOwn(b.upgrades ?? {}, plan))
      .map(([n]) => n),
  );
}

/** Per session: what incremental checks remember between commands, by key (checkMemo). */
const memos = new WeakMap<Session, Map<string, unknown>>();

/**
 * What the check `key` remembers about session `s` between commands (made by `init` on first use). An incremental
 * check keeps here what it found to hold, and must give the verdict a check from scratch gives: `forgetJudged`
 * drops every memo of a session, so the equivalence tests compare the two.
 */
export function checkMemo<T>(s: Session, key: string, init: () => T): T {
  let perSession = memos.get(s);
  if (perSession === undefined) {
    perSession = new Map();
    memos.set(s, perSession);
  }
  if (!perSession.has(key)) perSession.set(key, init());
  return perSession.get(key) as T;
}

/**
 * Judges the items of `list` that the check `key` has not yet found to hold, in order, and returns the first
 * violation (or HOLDS). For checks run after every command over a list that only grows, whose items each have a
 * verdict that is final once the item is there (it reads only the item and facts of blocks already committed): the
 * same verdict as judging the whole list each time, since every earlier item held. A violating item is judged
 * again on the next call.
 */
export function judgeNew<T>(s: Session, key: string, list: readonly T[], judge: (item: T) => Verdict): Verdict {
  const cursor = checkMemo(s, key, () => ({ held: 0 }));
  for (; cursor.held < list.length; cursor.held++) {
    const v = judge(list[cursor.held]!);
    if (!v.holds) return v;
  }
  return HOLDS;
}

/** Forgets what the incremental checks remember of `s`: their next calls judge everything from scratch. */
export function forgetJudged(s: Session): void {
  memos.delete(s);
}
