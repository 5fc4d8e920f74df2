import type { Ctx } from "../core/context.js";
import { type ChainError, ok, type Result } from "../core/errors.js";
import type { Plan } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { UpgradeKeeper, type UpgradeKeeperOptions } from "../upgrade/keeper.js";
import { encodePlan } from "../upgrade/plan.js";
import type { FaultSet } from "./faults.js";

/** The upgrade keeper with planted bugs (see faults.ts). Only used when a fault is enabled. */
export class FaultyUpgradeKeeper extends UpgradeKeeper {
  readonly #faults: FaultSet;

  constructor(opts: UpgradeKeeperOptions, faults: FaultSet) {
    super(opts);
    this.#faults = faults;
  }

  override getUpgradePlan(ctx: Ctx): Result<Plan, ChainError> {
    const p = super.getUpgradePlan(ctx);
    if (!p.ok || !this.#faults.has("off-by-one-due-height")) return p;
    return ok({ ...p.value, height: p.value.height - 1n });
  }

  override setDone(ctx: Ctx, name: string): void {
    if (!this.#faults.has("skip-done-marker")) super.setDone(ctx, name);
  }

  override scheduleUpgrade(ctx: Ctx, plan: Plan): Result<void, ChainError> {
    if (this.#faults.has("keep-first-schedule") && super.getUpgradePlan(ctx).ok) return ok(undefined);
    const bypass =
      (this.#faults.has("allow-past-plans") && plan.height > 0n && plan.height < BigInt(ctx.height)) ||
      (this.#faults.has("allow-completed-names") &&
        plan.name !== "" &&
        plan.height > 0n &&
        this.#isDone(ctx, plan.name));
    if (bypass) {
      ctx.kv("upgrade").set(Uint8Array.of(0x00), encodePlan(plan));
      return ok(undefined);
    }
    return super.scheduleUpgrade(ctx, plan);
  }

  #isDone(ctx: Ctx, name: string): boolean {
    const h = this.getDoneHeight(ctx, name);
    return h.ok && h.value !== 0n;
  }
}
