import type { FaultDefinition } from "./hooks.js";

/**
 * ApplyUpgrade drops the version map its handler returned: once genesis has stored the module versions, no later
 * map is written, so the store keeps the pre-upgrade versions and the next upgrade would run the same migrations
 * again.
 */
export const unrecordedMigrations = {
  name: "unrecorded-migrations",
  breaks: "ApplyUpgrade does not store the module version map the upgrade handler returned",
  hooks: {
    keeper: (Base) =>
      class extends Base {
        override setModuleVersionMap(...args: Parameters<InstanceType<typeof Base>["setModuleVersionMap"]>): void {
          const [ctx] = args;
          if (this.getModuleVersionMap(ctx).size === 0) super.setModuleVersionMap(...args);
        }
      },
  },
  caughtBy: { scenarios: ["handler-registered-applies-upgrade"] },
  replayFails: true,
} as const satisfies FaultDefinition;
