import { HOLDS, type Property, violated } from "../src/harness/property.js";

const PAST = "upgrade cannot be scheduled in the past: invalid request";

/**
 * ScheduleUpgrade's validation: a plan whose height is below the executing block fails with the reference error,
 * and a name that already has a done marker can't be scheduled again.
 */
export const scheduleChecks: Property = {
  name: "schedule-checks",
  statement: "always: a plan in the past fails its proposal, and a completed name can't be scheduled again",
  kind: "always",
  catches: ["allow-past-plans", "allow-completed-names"],
  check(s) {
    for (const e of s.execs) {
      for (const m of e.msgs) {
        if (m.kind !== "softwareUpgrade") continue;
        if (!e.ok) {
          const past = m.height < e.height && m.height > 0;
          if (past && e.error !== null && !e.error.includes(PAST))
            return violated(`plan ${m.name}@${m.height} at ${e.height} failed with ${JSON.stringify(e.error)}`);
          continue;
        }
        if (m.height < e.height)
          return violated(`plan ${m.name}@${m.height} in the past was accepted at height ${e.height}`);
        if (s.appliedBefore(m.name, e.height))
          return violated(`completed name "${m.name}" was scheduled again at height ${e.height}`);
      }
    }
    return HOLDS;
  },
};
