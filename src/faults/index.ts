import { allowCompletedNames } from "./allow-completed-names.js";
import { allowPastPlans } from "./allow-past-plans.js";
import type { FaultDefinition } from "./hooks.js";
import { ignoreCancel } from "./ignore-cancel.js";
import { ignoreSkipHeights } from "./ignore-skip-heights.js";
import { keepFirstSchedule } from "./keep-first-schedule.js";
import { missedHalt } from "./missed-halt.js";
import { noEarlyHalt } from "./no-early-halt.js";
import { noSwitchAfterFailedDownload } from "./no-switch-after-failed-download.js";
import { nondeterministicGenesis } from "./nondeterministic-genesis.js";
import { offByOneDueHeight } from "./off-by-one-due-height.js";
import { skipDoneMarker } from "./skip-done-marker.js";
import { staleBinarySwap } from "./stale-binary-swap.js";
import { storeUpgradesAddedOnly } from "./store-upgrades-added-only.js";
import { storeUpgradesWrongHeight } from "./store-upgrades-wrong-height.js";
import { unanimousConsensus } from "./unanimous-consensus.js";
import { unrecordedMigrations } from "./unrecorded-migrations.js";

/**
 * The planted-fault catalog (FoundationDB's BUGGIFY, TigerBeetle's fault atlas): each fault makes the real keeper,
 * app or engine wrong in one specific way through a hook (hooks.ts), and declares the properties and scenarios
 * that catch it (a test holds it to that). A scenario enables faults with `options.faults`, which is how a
 * counterexample found under a fault replays with `chainsim run`. Never enabled unless asked for; production
 * code names none of them: the app host and the engine only see composed hooks (compose.ts).
 */
export const FAULTS = [
  offByOneDueHeight,
  skipDoneMarker,
  missedHalt,
  noEarlyHalt,
  ignoreCancel,
  keepFirstSchedule,
  allowPastPlans,
  allowCompletedNames,
  storeUpgradesWrongHeight,
  storeUpgradesAddedOnly,
  unanimousConsensus,
  nondeterministicGenesis,
  staleBinarySwap,
  unrecordedMigrations,
  noSwitchAfterFailedDownload,
  ignoreSkipHeights,
] as const satisfies readonly FaultDefinition[];

export type Fault = (typeof FAULTS)[number]["name"];
export const FAULT_NAMES: readonly Fault[] = FAULTS.map((f) => f.name);
