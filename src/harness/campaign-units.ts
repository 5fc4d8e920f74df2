import { sha256 } from "@noble/hashes/sha2.js";
import { assert } from "../core/assert.js";
import { utf8 } from "../core/bytes.js";
import type { Fault } from "../faults/index.js";
import type { Property } from "./property.js";
import type { SharedPrefixOptions } from "./shared-prefix.js";

/**
 * The units of a check campaign (campaign.ts runs them, campaign-result.ts folds their outcomes): every selected property checked for `runsPerProperty` runs (times its `runsMultiplier`).
 *
 * Work units and sharding. A property's runs are cut into units of `runsPerUnit` runs (the last one shorter), after a
 * ramp of smaller units when `runsPerUnit` is at least 10 (a tenth, a fifth, a half of it: `unitSizes`), so that every
 * property gets its first runs early and a campaign that is going to fail usually fails within its first second; unit
 * `b` of property `p` is one `fc.check` with the seed `unitSeed(seed, p, b)` (sha256 of "chainsim-check/<seed>/<p>/<b>",
 * first 4 bytes, 31 bits). The units, listed property by property (in the order given) and block by block, do not
 * depend on the shard count. Shard `i/N` (1-based) runs the units whose index `k` has `k mod N = i - 1`. So the
 * shards of any N partition exactly the units one machine (`1/1`) runs: the same seeds, the same run counts, hence
 * the same runs. Within a shard, once a property fails its later units are skipped (shrinking dominates; one
 * counterexample per property is enough), so the union is exact only for properties that pass. A shard runs its units
 * block by block (every property's first block, the model-comparing ones first; then every property's second, ...).
 */

export const RUNS_PER_UNIT = 50;
export const DEFAULT_MAX_COMMANDS = 30;
export const GENERATION_SAMPLES = 1000;

export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly count: number;
}

export interface CampaignOptions {
  readonly seed: number;
  /** The properties to check, in report order (the harness names none: `properties/index.ts` lists them). */
  readonly properties: readonly Property[];
  readonly runsPerProperty: number;
  readonly runsPerUnit?: number;
  readonly shard?: Shard;
  readonly faults?: readonly Fault[];
  readonly maxCommands?: number;
  readonly timeLimitMs?: number;
  /**
   * Stop at the first failing run: that failure is not shrunk and every later unit is skipped. For a detector that
   * needs a verdict, not a counterexample (mutation testing); the campaign's result is the same pass/fail.
   */
  readonly bail?: boolean;
  /** Generate each property's runs as extensions of shared prefixes (shared-prefix.ts); off when absent. */
  readonly sharedPrefixes?: SharedPrefixOptions;
  /** Sequences sampled for the generation statistics (0 = none). */
  readonly generationSamples?: number;
}

export interface CampaignUnit {
  /** Index in the campaign's canonical unit list (the shard key). */
  readonly index: number;
  readonly property: Property;
  readonly block: number;
  readonly seed: number;
  readonly numRuns: number;
}

/** The fast-check seed of unit `block` of `property` in campaign `seed`. */
export function unitSeed(seed: number, property: string, block: number): number {
  const h = sha256(utf8(`chainsim-check/${seed}/${property}/${block}`));
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 1;
}

/**
 * The run counts of one property's units, in block order: `runs` in all, in units of `per` (the last one shorter),
 * after a ramp of a tenth, a fifth and a half of `per` when `per` is at least 10.
 */
export function unitSizes(runs: number, per: number): number[] {
  const ramp = per >= 10 ? [Math.floor(per / 10), Math.floor(per / 5), Math.floor(per / 2)] : [];
  const out: number[] = [];
  for (let left = runs, block = 0; left > 0; block++) {
    const size = Math.min(ramp[block] ?? per, left);
    out.push(size);
    left -= size;
  }
  return out;
}

/** Every unit of the campaign, in canonical order (independent of the shard). */
export function campaignUnits(o: CampaignOptions): CampaignUnit[] {
  const per = Math.max(1, o.runsPerUnit ?? RUNS_PER_UNIT);
  const out: CampaignUnit[] = [];
  for (const property of o.properties) {
    const multiplier = property.runsMultiplier ?? 1;
    assert(
      Number.isSafeInteger(multiplier) && multiplier >= 1,
      `${property.name}: runsMultiplier is a whole number ≥ 1`,
    );
    unitSizes(o.runsPerProperty * multiplier, per).forEach((numRuns, block) => {
      out.push({ index: out.length, property, block, seed: unitSeed(o.seed, property.name, block), numRuns });
    });
  }
  return out;
}

/** The units shard `i/N` runs. */
export function shardUnits(units: readonly CampaignUnit[], shard: Shard): CampaignUnit[] {
  return units.filter((u) => u.index % shard.count === shard.index - 1);
}
