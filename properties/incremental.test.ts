import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Fault } from "../src/faults/index.js";
import { emptyModel, type HarnessCommand, runCommand } from "../src/harness/commands.js";
import { checkProperty, type Property, type Verdict } from "../src/harness/property.js";
import { propertyRunArbitrary } from "../src/harness/run-property.js";
import { Session } from "../src/harness/session.js";
import type { ValidatorName } from "../src/harness/world.js";
import { cancelEffective } from "./cancel-effective.js";
import { latestScheduleWins } from "./latest-schedule-wins.js";
import { skipHeightSkips } from "./skip-height-skips.js";
import { storeUpgradesOnce } from "./store-upgrades-once.js";

const clean = (o: Record<string, number | undefined>): Partial<Record<ValidatorName, number>> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/**
 * The incremental checks (their per-run state, e.g. view.ts judgeNew's cursors: each command judges only what is
 * new) give, after every command, the verdict the same check gives from scratch, with a fresh state (`init`), over
 * the whole session: the same holds, the same
 * violation text. Over generated runs, with the planted fault each property catches (so violations are compared
 * too) and without.
 */
describe("incremental property checks", () => {
  // `runs`: sampled runs per fault setting, enough for the planted fault to show in some (keep-first-schedule needs
  // two schedules of which the first stands, rarer since the compound commands share the draws: 2 of 50 runs;
  // ignore-skip-heights needs a coordinated skip, then a swap to a binary with the handler: about 1 run in 30).
  const cases: readonly { readonly property: Property; readonly fault: Fault; readonly runs: number }[] = [
    { property: latestScheduleWins, fault: "keep-first-schedule", runs: 50 },
    { property: cancelEffective, fault: "ignore-cancel", runs: 30 },
    { property: storeUpgradesOnce, fault: "store-upgrades-wrong-height", runs: 30 },
    { property: skipHeightSkips, fault: "ignore-skip-heights", runs: 100 },
  ];
  for (const { property, fault, runs: numRuns } of cases) {
    it(`${property.name}: the verdict from scratch after every command, with ${fault} and without`, () => {
      let violations = 0;
      let checks = 0;
      for (const faults of [[], [fault]] as const) {
        const runs = fc.sample(propertyRunArbitrary(property, 25), { seed: 17, numRuns });
        for (const [[sidecars, cmds], variant] of runs) {
          const s = new Session({
            seed: 5,
            sidecars: clean(sidecars),
            faults,
            ...(variant === undefined ? {} : { variant }),
          });
          const model = emptyModel();
          for (const c of cmds) {
            if (!c.check(model)) continue;
            let incremental: Verdict | undefined;
            (c as HarnessCommand).run(model, {
              execute: (d, label) => {
                runCommand(s, d, label);
                incremental = checkProperty(s, property);
              },
            });
            const full = property.check(s, property.init?.(s));
            checks++;
            expect(incremental).toEqual(full);
            if (!full.holds) {
              violations++;
              break;
            }
          }
        }
      }
      expect(checks).toBeGreaterThan(100);
      expect(violations).toBeGreaterThan(0);
    }, 120_000);
  }
});
