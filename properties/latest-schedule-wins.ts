import { HOLDS, type Property, violated } from "../src/harness/property.js";

/**
 * ScheduleUpgrade overwrites the single plan slot: of the successful upgrade messages a block executes (proposals
 * in (end time, id) order, then authority transactions), the last one's plan is the plan after the block.
 */
export const latestScheduleWins: Property = {
  name: "latest-schedule-wins",
  statement: "always: of two passed schedules, the one that executes later wins, in (end time, id) order",
  kind: "always",
  check(s) {
    for (const e of s.execs) {
      const last = e.msgs[e.msgs.length - 1];
      if (!s.lastExecOfBlock(e) || last?.kind !== "softwareUpgrade") continue;
      const want = { name: last.name, height: last.height };
      const planAfter = s.planAfter(e.height);
      if (planAfter === null || planAfter.name !== want.name || planAfter.height !== want.height)
        return violated(
          `the last schedule at ${e.height} was ${JSON.stringify(want)} but the plan is ${JSON.stringify(planAfter)}`,
        );
    }
    return HOLDS;
  },
};
