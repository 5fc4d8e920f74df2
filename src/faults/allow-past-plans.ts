import { ok } from "../core/errors.js";
import { encodePlan } from "../upgrade/plan.js";
import type { FaultDefinition } from "./hooks.js";

/** ScheduleUpgrade stores a plan whose height is below the executing block instead of rejecting it. */
export const allowPastPlans = {
  name: "allow-past-plans",
  breaks: "ScheduleUpgrade accepts a plan whose height is in the past",
  hooks: {
    keeper: (Base) =>
      class extends Base {
        override scheduleUpgrade(...a: Parameters<InstanceType<typeof Base>["scheduleUpgrade"]>) {
          const [ctx, plan] = a;
          if (plan.height <= 0n || plan.height >= BigInt(ctx.height)) return super.scheduleUpgrade(...a);
          ctx.kv("upgrade").set(Uint8Array.of(0x00), encodePlan(plan));
          return ok(undefined);
        }
      },
  },
  caughtBy: { scenarios: ["plan-in-the-past-fails-proposal"] },
  replayFails: true,
} as const satisfies FaultDefinition;
