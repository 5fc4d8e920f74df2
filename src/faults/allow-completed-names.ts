import { ok } from "../core/errors.js";
import { encodePlan } from "../upgrade/plan.js";
import type { FaultDefinition } from "./hooks.js";

/** ScheduleUpgrade stores a plan whose name already has a done marker instead of rejecting it. */
export const allowCompletedNames = {
  name: "allow-completed-names",
  breaks: "ScheduleUpgrade accepts a name that was already applied",
  hooks: {
    keeper: (Base) =>
      class extends Base {
        override scheduleUpgrade(...a: Parameters<InstanceType<typeof Base>["scheduleUpgrade"]>) {
          const [ctx, plan] = a;
          const done = plan.name === "" || plan.height <= 0n ? undefined : this.getDoneHeight(ctx, plan.name);
          if (done === undefined || !done.ok || done.value === 0n) return super.scheduleUpgrade(...a);
          ctx.kv("upgrade").set(Uint8Array.of(0x00), encodePlan(plan));
          return ok(undefined);
        }
      },
  },
  caughtBy: { scenarios: ["completed-name-cannot-be-scheduled-again"] },
  replayFails: true,
} as const satisfies FaultDefinition;
