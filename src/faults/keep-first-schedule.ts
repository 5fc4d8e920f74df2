import { ok } from "../core/errors.js";
import type { FaultDefinition } from "./hooks.js";

/** ScheduleUpgrade leaves an existing plan in place instead of overwriting the single plan slot. */
export const keepFirstSchedule = {
  name: "keep-first-schedule",
  breaks: "ScheduleUpgrade keeps an existing plan instead of replacing it",
  hooks: {
    keeper: (Base) =>
      class extends Base {
        override scheduleUpgrade(...a: Parameters<InstanceType<typeof Base>["scheduleUpgrade"]>) {
          return this.getUpgradePlan(a[0]).ok ? ok(undefined) : super.scheduleUpgrade(...a);
        }
      },
  },
  caughtBy: { scenarios: ["reschedule-later-delays-upgrade"] },
  replayFails: true,
} as const satisfies FaultDefinition;
