import { HOLDS, type Property, type Verdict, violated } from "../src/harness/property.js";
import type { ExecRecord } from "../src/harness/session-records.js";
import type { SessionView } from "../src/harness/session-view.js";
import { type Judged, judgeNew, nothingJudged } from "../src/harness/view.js";

/**
 * ScheduleUpgrade overwrites the single plan slot: of the successful upgrade messages a block executes (proposals
 * in (end time, id) order, then authority transactions), the last one's plan is the plan after the block.
 */
export const latestScheduleWins: Property<Judged> = {
  name: "latest-schedule-wins",
  statement: "always: of two passed schedules, the one that executes later wins, in (end time, id) order",
  kind: "always",
  catches: ["keep-first-schedule"],
  // Incremental: an execution's verdict is final once its block committed (view.ts judgeNew).
  init: nothingJudged,
  check: (s, execs) => judgeNew(execs, s.execs, (e) => judgeExec(s, e)),
};

function judgeExec(s: SessionView, e: ExecRecord): Verdict {
  const last = e.msgs[e.msgs.length - 1];
  if (!s.lastExecOfBlock(e) || last?.kind !== "softwareUpgrade") return HOLDS;
  const want = { name: last.name, height: last.height };
  const planAfter = s.planAfter(e.height);
  if (planAfter === null || planAfter.name !== want.name || planAfter.height !== want.height)
    return violated(
      `the last schedule at ${e.height} was ${JSON.stringify(want)} but the plan is ${JSON.stringify(planAfter)}`,
    );
  return HOLDS;
}
