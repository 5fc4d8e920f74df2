/**
 * The worker side of `chainsim check --workers N` (check-run.ts): one task is one unit of the campaign, run with
 * `runUnit` exactly as the calling thread would run it, its property resolved by name from the registry. A
 * worker keeps nothing between tasks that an outcome could depend on (the harness's caches hold parsed worlds and
 * initial oracles, pure functions of their keys), so an outcome depends on its unit alone.
 */
import { propertyNamed } from "../../properties/index.js";
import { runUnit, type UnitOutcome, type UnitTask } from "../harness/campaign.js";

export default function runCheckUnit(task: UnitTask): UnitOutcome {
  const property = propertyNamed(task.property);
  if (property === undefined) throw new Error(`check worker: unknown property "${task.property}"`);
  return runUnit(task, property, { clock: () => performance.now() });
}
