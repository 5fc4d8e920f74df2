import { HOLDS, type Property, violated } from "../src/harness/property.js";

/**
 * A plan is never applied at a skip height. A node started with `--unsafe-skip-upgrades` holding height h finds, at
 * h, the due plan, logs `UPGRADE "<name>" SKIPPED at <h>`, clears the plan and goes on without running its handler
 * (reference x/upgrade/abci.go PreBlocker: `k.IsSkipHeight(blockHeight)` is checked before the handler; the
 * simulator's src/upgrade/preblocker.ts step 4). A skipping node's app hash differs from an applying node's, so a
 * block that ran a handler must have been committed only by nodes whose skip heights do not hold its height.
 *
 * The view records no node's skip heights, so the check follows the engine's trace (`s.sim.traceEventsFrom`): each
 * `start` event sets the node's skip heights until its next start, and each `block` event names the plan it applied
 * and its committers. Incremental: the state keeps the trace position and the skip heights read so far.
 */
interface SkipHeightSkipsState {
  /** Trace events read so far (an open range of idle blocks at the end is not counted: it is still growing). */
  cursor: number;
  /** Node → the skip heights of its last start. */
  readonly skips: Map<string, readonly number[]>;
}

export const skipHeightSkips: Property<SkipHeightSkipsState> = {
  name: "skip-height-skips",
  statement:
    "always: a plan is never applied at a skip height: no node that commits a block has its height among its skip heights when the block runs a handler",
  kind: "always",
  catches: ["ignore-skip-heights"],
  init: () => ({ cursor: 0, skips: new Map() }),
  check(s, state) {
    const events = s.sim.traceEventsFrom(state.cursor);
    for (let i = 0; i < events.length; i++) {
      const ev = events[i]!;
      if (ev.kind === "blocks" && i === events.length - 1) break;
      if (ev.kind === "start") state.skips.set(ev.node, ev.skip);
      if (ev.kind === "block" && ev.applied !== undefined) {
        const skipping = ev.committers.filter((n) => state.skips.get(n)?.includes(ev.height) === true);
        if (skipping.length > 0)
          return violated(
            `block ${ev.height} ran the handler of "${ev.applied}", committed by ${skipping.join(", ")} with ${ev.height} among their skip heights`,
          );
      }
      state.cursor++;
    }
    return HOLDS;
  },
};
