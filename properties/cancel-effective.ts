import { HOLDS, type Property, violated } from "../src/harness/property.js";
import { blocksWithPlan } from "../src/harness/view.js";

/**
 * MsgCancelUpgrade clears the plan slot: no block applies a plan after a cancel emptied the slot, and the block
 * whose last upgrade message was a successful cancel ends with no plan.
 */
export const cancelEffective: Property = {
  name: "cancel-effective",
  statement: "always: a plan cleared by a cancel that executed before the height never runs",
  kind: "always",
  check(s) {
    for (const { block: b, plan } of blocksWithPlan(s))
      if (b.applied !== null && plan === null)
        return violated(`block ${b.height} applied "${b.applied}" with no plan scheduled`);
    for (const e of s.execs) {
      const last = e.msgs[e.msgs.length - 1];
      if (!s.lastExecOfBlock(e) || last?.kind !== "cancelUpgrade") continue;
      const planAfter = s.planAfter(e.height);
      if (planAfter !== null)
        return violated(`a cancel executed at ${e.height} but plan ${JSON.stringify(planAfter)} remains`);
    }
    return HOLDS;
  },
};
