import type { Ctx } from "../core/context.js";
import { type ChainError, errorText, isError } from "../core/errors.js";
import { UpgradeErrors } from "./errors.js";
import type { Halt, HaltKind } from "./halt.js";
import { LOG_MODULE, type UpgradeKeeper } from "./keeper.js";
import { dueAt, shouldExecute } from "./plan.js";

/**
 * The x/upgrade PreBlocker (reference x/upgrade/abci.go, v0.50/v0.53). It must be the first pre-blocker of a block.
 * A halt means the reference returned an error from PreBlock: the block is not committed and the node stops.
 *
 * Every reference error becomes a halt; the kinds are: missing handler → `upgrade-needed` (or
 * `upgrade-info-write-failed` when the dump failed), early binary → `binary-too-early`, missing handler of the
 * last applied upgrade → `downgrade`, and every other error (handler or ApplyUpgrade error, a corrupt stored plan or
 * done key) → `handler-error` carrying the error text.
 */
export type PreBlockResult =
  | { readonly ok: true; readonly consensusParamsChanged: boolean; readonly applied?: { readonly name: string } }
  | { readonly ok: false; readonly halt: Halt };

const halt = (kind: HaltKind, message: string): PreBlockResult => ({ ok: false, halt: { kind, message } });
const fromError = (e: ChainError): PreBlockResult => halt("handler-error", errorText(e));
const proceed = (consensusParamsChanged: boolean): PreBlockResult => ({ ok: true, consensusParamsChanged });

/** `UPGRADE "<name>" NEEDED at height: <plan.height>: <info>` (reference BuildUpgradeNeededMsg). */
export const buildUpgradeNeededMsg = (name: string, planDueAt: string, info: string): string =>
  `UPGRADE "${name}" NEEDED at ${planDueAt}: ${info}`;

export function preBlock(keeper: UpgradeKeeper, ctx: Ctx): PreBlockResult {
  const h = BigInt(ctx.height);

  // 1. The plan; only "not found" is not an error.
  const got = keeper.getUpgradePlan(ctx);
  if (!got.ok && !isError(got.error, UpgradeErrors.ErrNoUpgradePlanFound)) return fromError(got.error);
  const plan = got.ok ? got.value : undefined;

  // 2. Downgrade check, once per process; the flag is set before the check, so a failed check is not repeated.
  if (!keeper.downgradeVerified()) {
    keeper.setDowngradeVerified(true);
    const due = plan !== undefined && shouldExecute(plan, h);
    if (plan === undefined || !due || (due && keeper.isSkipHeight(ctx.height))) {
      const last = keeper.getLastCompletedUpgrade(ctx);
      if (!last.ok) return fromError(last.error);
      if (last.value.name !== "" && !keeper.hasHandler(last.value.name)) {
        return halt(
          "downgrade",
          `wrong app version ${ctx.appVersion}, upgrade handler is missing for ${last.value.name} upgrade plan`,
        );
      }
    }
  }

  // 3. No plan: nothing to do.
  if (plan === undefined) return proceed(false);

  // 4. A due plan: skip at a skip height (the CURRENT height), halt without a handler, else apply.
  if (shouldExecute(plan, h)) {
    if (keeper.isSkipHeight(ctx.height)) {
      ctx.log("info", LOG_MODULE, `UPGRADE "${plan.name}" SKIPPED at ${plan.height}: ${plan.info}`);
      const cleared = keeper.clearUpgradePlan(ctx);
      if (!cleared.ok) return fromError(cleared.error);
      return proceed(false);
    }
    if (!keeper.hasHandler(plan.name)) {
      // The CURRENT height goes to upgrade-info.json: the height at which the new binary must apply the plan.
      const dumped = keeper.dumpUpgradeInfoToDisk(h, plan);
      if (!dumped.ok) {
        return halt("upgrade-info-write-failed", `unable to write upgrade info to filesystem: ${dumped.error.message}`);
      }
      const msg = buildUpgradeNeededMsg(plan.name, dueAt(plan), plan.info);
      ctx.log("error", LOG_MODULE, msg);
      return halt("upgrade-needed", msg);
    }
    ctx.log("info", LOG_MODULE, `applying upgrade "${plan.name}" at ${dueAt(plan)}`);
    // The reference switches to an infinite block gas meter here; the simulator meters no block gas.
    const applied = keeper.applyUpgrade(ctx, plan);
    if (!applied.ok) return fromError(applied.error);
    return { ok: true, consensusParamsChanged: true, applied: { name: plan.name } };
  }

  // 5. A handler for a plan that is not yet due: this binary came too early.
  if (keeper.hasHandler(plan.name)) {
    const msg = `BINARY UPDATED BEFORE TRIGGER! UPGRADE "${plan.name}" - in binary but not executed on chain. Downgrade your binary`;
    ctx.log("error", LOG_MODULE, msg);
    return halt("binary-too-early", msg);
  }

  // 6. A pending plan this binary does not know yet.
  return proceed(false);
}
