import { HOLDS, type Property, violated } from "../src/harness/property.js";
import { type Judged, judgeNew, nothingJudged } from "../src/harness/view.js";

/**
 * MsgCancelUpgrade clears the plan slot: no block applies a plan after a cancel emptied the slot, and the block
 * whose last upgrade message was a successful cancel ends with no plan.
 */
/** How far the checks of one run have judged: the blocks, then the upgrade-message executions. */
interface CancelEffectiveState {
  readonly blocks: Judged;
  readonly execs: Judged;
}

export const cancelEffective: Property<CancelEffectiveState> = {
  name: "cancel-effective",
  statement: "always: a plan cleared by a cancel that executed before the height never runs",
  kind: "always",
  catches: ["ignore-cancel"],
  // Incremental: a block's and an execution's verdicts are final once the block committed (view.ts judgeNew).
  init: () => ({ blocks: nothingJudged(), execs: nothingJudged() }),
  check(s, judged) {
    const blocks = judgeNew(judged.blocks, s.blocksWithPlan(), ({ block: b, plan }) =>
      b.applied !== null && plan === null
        ? violated(`block ${b.height} applied "${b.applied}" with no plan scheduled`)
        : HOLDS,
    );
    if (!blocks.holds) return blocks;
    return judgeNew(judged.execs, s.execs, (e) => {
      const last = e.msgs[e.msgs.length - 1];
      if (!s.lastExecOfBlock(e) || last?.kind !== "cancelUpgrade") return HOLDS;
      const planAfter = s.planAfter(e.height);
      return planAfter === null
        ? HOLDS
        : violated(`a cancel executed at ${e.height} but plan ${JSON.stringify(planAfter)} remains`);
    });
  },
};
