import { type AppHooks, NO_HOOKS } from "../app/hooks.js";
import type { ConsensusHook } from "../chain/consensus.js";
import type { LaunchHook, OperatorLaunchHook } from "../chain/records.js";
import type { FaultHooks } from "./hooks.js";
import { FAULTS, type Fault } from "./index.js";

/** The hooks of a set of faults, composed for the two places that take them: the app host and the engine. */
export interface ComposedFaults {
  readonly app: AppHooks;
  /** Absent when no fault touches consensus. */
  readonly consensus?: ConsensusHook;
  /** Absent when no fault touches the launcher. */
  readonly launch?: LaunchHook;
  /** Absent when no fault touches operator-model restarts. */
  readonly operatorLaunch?: OperatorLaunchHook;
}

/**
 * The one composition point: the enabled faults' hooks, in catalog order (each wraps what the earlier ones built).
 * No faults: the reference wiring (NO_HOOKS), the same object every time.
 */
export function composeFaults(enabled: readonly Fault[]): ComposedFaults {
  const on = FAULTS.filter((f) => enabled.includes(f.name)).map((f): FaultHooks => f.hooks);
  if (on.length === 0) return { app: NO_HOOKS };
  let app: AppHooks = NO_HOOKS;
  let consensus: ConsensusHook | undefined;
  let launch: LaunchHook | undefined;
  let operatorLaunch: OperatorLaunchHook | undefined;
  for (const h of on) {
    const prev = app;
    app = {
      keeper: h.keeper === undefined ? prev.keeper : h.keeper(prev.keeper),
      preBlock: h.preBlock === undefined ? prev.preBlock : (r) => h.preBlock!(prev.preBlock(r)),
      msgServer: h.msgServer === undefined ? prev.msgServer : (i, k) => h.msgServer!(prev.msgServer(i, k), k),
      storeLoader: h.storeLoader === undefined ? prev.storeLoader : (l) => h.storeLoader!(prev.storeLoader(l)),
      genesisAppHash:
        h.genesisAppHash === undefined ? prev.genesisAppHash : (x) => h.genesisAppHash!(prev.genesisAppHash(x)),
    };
    if (h.consensus !== undefined) {
      const before = consensus;
      const hook = h.consensus;
      consensus = before === undefined ? hook : (d, e, t) => hook(before(d, e, t), e, t);
    }
    if (h.launch !== undefined) {
      const before = launch;
      const hook = h.launch;
      launch = before === undefined ? hook : (n, requested, running) => hook(n, before(n, requested, running), running);
    }
    if (h.operatorLaunch !== undefined) {
      const before = operatorLaunch;
      const hook = h.operatorLaunch;
      operatorLaunch =
        before === undefined
          ? hook
          : (n, requested, running, f) => hook(n, before(n, requested, running, f), running, f);
    }
  }
  return {
    app,
    ...(consensus === undefined ? {} : { consensus }),
    ...(launch === undefined ? {} : { launch }),
    ...(operatorLaunch === undefined ? {} : { operatorLaunch }),
  };
}
