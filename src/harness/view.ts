import { HOLDS, type Verdict } from "./property.js";
import type { SessionView } from "./session-view.js";

/**
 * Facts several properties derive from a session, computed one way for all of them (which binaries of the world
 * have a plan's handler; the blocks with their plans are `SessionView.blocksWithPlan`: plan-index.ts), and the
 * cursor an incremental check keeps in its per-run state (`judgeNew`).
 */

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
