import type { Oracle } from "../../models/oracle.js";
import type { TracePosition } from "../chain/trace-events.js";
import type { LogLine } from "../core/context.js";
import type { Scenario } from "../scenario/model.js";
import type { ScenarioDocument, StepDocument } from "../scenario/schema.js";
import type { Simulation } from "../scenario/simulate.js";
import type { BlockWithPlan } from "./plan-index.js";
import type { AccountTxRecord, BlockRecord, ExecRecord, HarnessMsg } from "./session-records.js";

/**
 * A property-test session as an `always` property reads it (property.ts): the world, the chain and the model,
 * and what the session recorded from the chain's trace. Read-only: nothing here schedules a step or advances the
 * chain (the engine's `sim` is the real one: a check calls only its queries). `Session` is the one implementation.
 */
export interface SessionView {
  /** The world as a scenario document (what a counterexample starts from). */
  readonly doc: ScenarioDocument;
  /** The same world resolved: every default of the scenario format filled in (src/scenario/resolve.ts). */
  readonly scenario: Scenario;
  /** The steps the harness scheduled so far, as scenario steps. */
  readonly steps: readonly StepDocument[];
  readonly sim: Simulation;
  readonly oracle: Oracle;
  readonly height: number;
  /** Committed blocks in order. */
  readonly blocks: readonly BlockRecord[];
  /** Upgrade-message executions (proposals' and the authority's), in the order they committed. */
  readonly execs: readonly ExecRecord[];
  /** Upgrade transactions signed by another account than the gov authority, in the order they landed. */
  readonly accountTxs: readonly AccountTxRecord[];
  /** The x/upgrade line the model says each block that applied or skipped a plan writes. */
  readonly upgradeLines: readonly { readonly height: number; readonly line: LogLine }[];
  /** Proposal label → its messages. */
  readonly proposals: ReadonlyMap<string, readonly HarnessMsg[]>;
  /** Node → binary it runs, from the trace. */
  readonly binaries: ReadonlyMap<string, string>;
  /** Transition ids of the model fired so far, and how many times each. */
  readonly fired: ReadonlySet<string>;
  readonly firedCounts: ReadonlyMap<string, number>;
  /** Oracle events sent so far. */
  readonly eventsSent: number;
  /** What the harness asked for; its gaps are where the chain's account deviated. */
  readonly intents: { readonly gaps: readonly string[] };
  /** Where the trace stands as of the last sync. */
  readonly tracePosition: TracePosition;
  /** The committed plan after block `height`. */
  planAfter(height: number): BlockRecord["planBefore"];
  /** True when a block below `height` applied the plan `name`. */
  appliedBefore(name: string, height: number): boolean;
  /** True when `e` is the last successful upgrade-message execution of its block (it decides the plan slot). */
  lastExecOfBlock(e: ExecRecord): boolean;
  /** The committed blocks in order, each with the plan its PreBlocker saw and that plan's due height (view.ts). */
  blocksWithPlan(): readonly BlockWithPlan[];
}
