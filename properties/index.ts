import type { Property } from "../src/harness/property.js";
import { cancelEffective } from "./cancel-effective.js";
import { correctHeight } from "./correct-height.js";
import { determinism } from "./determinism.js";
import { earlySwapHalts } from "./early-swap-halts.js";
import { govFollowsTally } from "./gov-follows-tally.js";
import { gracefulHalt } from "./graceful-halt.js";
import { latestScheduleWins } from "./latest-schedule-wins.js";
import { liveness } from "./liveness.js";
import { modelAgreement } from "./model-agreement.js";
import { operatorLiveness } from "./operator-liveness.js";
import { runOnce } from "./run-once.js";
import { scheduleChecks } from "./schedule-checks.js";
import { skipHeightSkips } from "./skip-height-skips.js";
import { storeUpgradesOnce } from "./store-upgrades-once.js";

/**
 * The registry: every property chainsim checks, in report order (`end` properties run in this order too: the
 * liveness heal before the determinism replay). `chainsim check --property <name>` selects from it.
 */
export const PROPERTIES = [
  runOnce,
  correctHeight,
  skipHeightSkips,
  gracefulHalt,
  earlySwapHalts,
  cancelEffective,
  latestScheduleWins,
  scheduleChecks,
  storeUpgradesOnce,
  govFollowsTally,
  liveness,
  operatorLiveness,
  determinism,
  modelAgreement,
] as const satisfies readonly Property[];

export const PROPERTY_NAMES: readonly string[] = PROPERTIES.map((p) => p.name);

/** The registered property of a name, if any. */
export const propertyNamed = (name: string): Property | undefined => PROPERTIES.find((p) => p.name === name);
