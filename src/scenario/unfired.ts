import type { WaitingStep } from "../chain/schedule.js";
import { formatDuration } from "../core/go/duration.js";
import { formatRfc3339 } from "../core/go/time.js";
import type { Failure } from "./failure.js";
import type { Scenario, Step, Trigger } from "./model.js";
import type { Simulation } from "./simulate.js";

/**
 * A step that never ran fails its scenario (docs/scenario-format.md §2.6), unless it is `optional: true`.
 *
 * 1. The steps of the file that are still waiting when the run ends: for their trigger, or (a halt step whose halt
 *    came) for their delay. A step that ran but whose transactions never landed is not one of them: it has a
 *    result, reported failed (`steps`).
 * 2. Each gets one failure naming its label and trigger, and why it never ran:
 *    - the run stopped first: the run ended before its height or time, before its delay after the matching halt,
 *      or before any matching halt came;
 *    - an earlier step took the same trigger: every matching halt was claimed by an earlier step with the same
 *      `on` trigger (a halt is claimed once per trigger);
 *    - the node never started: the node named by its `on` trigger never executed a block.
 */
export function unfiredStepFailures(s: Scenario, sim: Simulation): Failure[] {
  const out: Failure[] = [];
  for (const w of sim.waitingSteps()) {
    const st = s.steps[w.step.index];
    if (st === undefined || st.index !== w.step.index || st.optional === true) continue;
    out.push({
      at: `steps[${st.index}]${st.label === undefined ? "" : ` "${st.label}"`}`,
      expected: `to run (${triggerText(st.trigger)})`,
      actual: `never ran: ${whyNotRun(s, sim, st, w)}`,
    });
  }
  return out;
}

/** The trigger as the file writes it. */
export function triggerText(t: Trigger): string {
  switch (t.kind) {
    case "height":
      return `at: ${t.height}`;
    case "time":
      return `at: {time: ${formatRfc3339(t.timeMs)}}`;
    case "halt": {
      const keys = [
        `halt: ${t.node ?? "any"}`,
        ...(t.haltKind === undefined ? [] : [`kind: ${t.haltKind}`]),
        ...(t.height === undefined ? [] : [`height: ${t.height}`]),
      ];
      return `on: {${keys.join(", ")}}${t.delayMs === 0 ? "" : `, delay: ${formatDuration(t.delayMs)}`}`;
    }
  }
}

/** Where the run ended, as the reasons say it. */
const endText = (sim: Simulation) => `the run ended at height ${sim.height} (${formatRfc3339(sim.nowMs)})`;

function whyNotRun(s: Scenario, sim: Simulation, st: Step, w: WaitingStep): string {
  const t = st.trigger;
  if (w.waitsFor === "delay")
    return `the run stopped first: a matching halt came, the step was due at ${formatRfc3339(w.dueMs ?? 0)}; ${endText(sim)}`;
  if (t.kind !== "halt") return `the run stopped first: ${endText(sim)}`;
  const matching = sim.halts.filter(
    (h) =>
      (t.node === null || h.node === t.node) &&
      (t.haltKind === undefined || h.kind === t.haltKind) &&
      (t.height === undefined || h.height === t.height),
  );
  if (matching.length > 0) {
    const key = triggerText({ ...t, delayMs: 0 });
    const earlier = s.steps
      .filter(
        (x) => x.index < st.index && x.trigger.kind === "halt" && triggerText({ ...x.trigger, delayMs: 0 }) === key,
      )
      .map((x) => `steps[${x.index}]${x.label === undefined ? "" : ` "${x.label}"`}`);
    const halts = matching.map((h) => `${h.node} at height ${h.height}`).join(", ");
    return `an earlier step took the same trigger (${earlier.join(", ")} took the matching halt: ${halts})`;
  }
  if (t.node !== null && (sim.nodeStatus(t.node)?.height ?? 0) === 0 && sim.height > 0) {
    const status = sim.nodeStatus(t.node)?.status ?? "unknown";
    return `the node never started: ${t.node} never executed a block (it is ${status}); ${endText(sim)}`;
  }
  return `the run stopped first: no matching halt came; ${endText(sim)}`;
}
