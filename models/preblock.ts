/**
 * One node's upgrade PreBlocker at block `h` (docs/fidelity.md §2.3, §2.10), as a pure function of the committed state
 * before the block and the node's binary, skip heights and in-memory downgrade flag.
 */
import type { Height } from "../src/core/brand.js";
import { hasHandler, runHandler } from "./binaries.js";
import { mergeVersionMaps } from "./binary-outcome.js";
import { lastCompletedUpgrade, markDone, shouldExecute } from "./keeper-rules.js";
import type { BinaryInput, ChainState, HaltKind, Plan, PlanAction, UpgradeInfo } from "./types.js";

export interface PreBlockNode {
  readonly binary: BinaryInput;
  readonly skipHeights: readonly number[];
  readonly downgradeCheckPending: boolean;
  /** Store-layout entry loaded at start and not yet committed; it joins the state this block commits. */
  readonly pendingStoreUpgrade: string | null;
}

export type PreBlockOutcome =
  | {
      readonly kind: "halt";
      readonly halt: { readonly kind: HaltKind; readonly message: string };
      /** Written before halting (upgrade-needed only). */
      readonly upgradeInfo: UpgradeInfo | null;
      readonly handlerRan: boolean;
    }
  | {
      readonly kind: "ok";
      readonly action: PlanAction;
      readonly planName: string | null;
      /** State after the PreBlocker (before the block's transactions). */
      readonly post: ChainState;
      /** Store markers the handler wrote (part of the app hash). */
      readonly effects: readonly string[];
      readonly handlerRan: boolean;
    };

/** The consensus params' Version.App the downgrade message shows; never set by anything modelled here. */
export const CONSENSUS_APP_VERSION = 0;

export const upgradeNeededMessage = (plan: Plan): string =>
  `UPGRADE "${plan.name}" NEEDED at height: ${plan.height}: ${plan.info}`;

export const binaryTooEarlyMessage = (name: string): string =>
  `BINARY UPDATED BEFORE TRIGGER! UPGRADE "${name}" - in binary but not executed on chain. Downgrade your binary`;

export const downgradeMessage = (last: string): string =>
  `wrong app version ${CONSENSUS_APP_VERSION}, upgrade handler is missing for ${last} upgrade plan`;

const halt = (kind: HaltKind, message: string, upgradeInfo: UpgradeInfo | null = null, handlerRan = false) =>
  ({ kind: "halt", halt: { kind, message }, upgradeInfo, handlerRan }) as const;

export function preBlock(pre: ChainState, h: Height, node: PreBlockNode): PreBlockOutcome {
  const base: ChainState =
    node.pendingStoreUpgrade === null ? pre : { ...pre, stores: [...pre.stores, node.pendingStoreUpgrade] };
  const plan = pre.plan;
  const due = plan !== null && shouldExecute(plan, h);
  const skipped = due && node.skipHeights.includes(h);

  if (node.downgradeCheckPending && !(due && !skipped)) {
    const last = lastCompletedUpgrade(pre.done);
    if (last !== null && !hasHandler(node.binary, last.name)) return halt("downgrade", downgradeMessage(last.name));
  }
  const none = { kind: "ok", action: "none", planName: null, post: base, effects: [], handlerRan: false } as const;
  if (plan === null) return none;
  if (due) {
    if (skipped) {
      return {
        kind: "ok",
        action: "skipped",
        planName: plan.name,
        post: { ...base, plan: null },
        effects: [],
        handlerRan: false,
      };
    }
    const outcome = runHandler(node.binary, plan.name, pre.moduleVersions);
    if (outcome === null) {
      return halt("upgrade-needed", upgradeNeededMessage(plan), { name: plan.name, height: h, info: plan.info });
    }
    if (!outcome.ok) return halt("handler-error", outcome.error, null, true);
    const post: ChainState = {
      ...base,
      plan: null,
      done: markDone(pre.done, plan.name, h),
      protocolVersion: pre.protocolVersion + 1,
      moduleVersions: mergeVersionMaps(pre.moduleVersions, outcome.versionMap),
    };
    return { kind: "ok", action: "applied", planName: plan.name, post, effects: outcome.effects, handlerRan: true };
  }
  if (hasHandler(node.binary, plan.name)) return halt("binary-too-early", binaryTooEarlyMessage(plan.name));
  return none;
}
