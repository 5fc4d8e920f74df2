import { ok } from "../core/errors.js";
import type { FaultDefinition } from "./hooks.js";

/** The keeper reports every plan one block lower than stored, so the PreBlocker acts one block early. */
export const offByOneDueHeight = {
  name: "off-by-one-due-height",
  breaks: "the PreBlocker sees every plan one block earlier than its height",
  hooks: {
    keeper: (Base) =>
      class extends Base {
        override getUpgradePlan(...a: Parameters<InstanceType<typeof Base>["getUpgradePlan"]>) {
          const p = super.getUpgradePlan(...a);
          return p.ok ? ok({ ...p.value, height: p.value.height - 1n }) : p;
        }
      },
  },
  caughtBy: {
    scenarios: ["binary-too-early-despite-skip-height", "binary-too-early-halts-until-downgraded"],
  },
  replayFails: true,
} as const satisfies FaultDefinition;
