import type { OracleInput } from "../../models/types.js";
import { addressOfName } from "../core/address.js";
import type { Fault } from "../faults/index.js";
import type { ScenarioDocument } from "../scenario/schema.js";

type ScenarioBinary = ScenarioDocument["binaries"][string];

/**
 * The world every property run starts from: four validators of equal power, short governance periods (so that
 * plans near the decision height are common), a 6 s block time, and binaries that cover every handler situation:
 * - `v1` genesis, no handlers;
 * - `v2` handler for plan `v2` (migrate; `bank` goes 1 → 2 through a registered migration);
 * - `v3` handlers for `v2` and `v3` (noop), so it survives both upgrades;
 * - `v3-only` handler for `v3` only (for a chain that applied `v3` first);
 * - `v2-broken` handler for `v2` that fails (`handler-error`);
 * - `v2-missing-migration` handler for `v2` whose migration of `gov` 1 → 2 is not registered.
 * Plan names are drawn from {v2, v3}.
 *
 * The store worlds are the same world in which plan `v2` also carries store upgrades, one kind each, so that each
 * kind alone must make the store loader apply them (UpgradeStoreLoader applies them when any list is non-empty):
 * - `store-upgrades`: `v2` and `v3` mount the new store `foo` and `v2` adds it;
 * - `store-renames`: every binary mounts `legacy` but `v2` and `v3`, which mount `foo` instead; `v2` renames
 *   `legacy` → `foo`;
 * - `store-deletes`: every binary mounts `legacy` but `v3`; `v2` deletes it. A deleted store leaves the committed
 *   state although `v2` still mounts it, and a later start of `v2` fails to load (the reference's version
 *   mismatch), as it does in the reference. Only `v3`, whose handler for `v2` applies it without a halt, can
 *   commit a block without `legacy` before `v2` deletes it, so a start at which `v2`'s deletion is due finds it.
 * Starting `v2` or `v3` before the upgrade height fails to load the stores where they mount a store the chain has
 * not committed, as in the reference, a halt the oracle does not model: only the properties that need store
 * upgrades are checked in these worlds.
 */
export const WORLD_VARIANTS = ["standard", "store-upgrades", "store-renames", "store-deletes"] as const;
export type WorldVariant = (typeof WORLD_VARIANTS)[number];

export const PLAN_NAMES = ["v2", "v3"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export const VALIDATORS = ["val1", "val2", "val3", "val4"] as const;
export type ValidatorName = (typeof VALIDATORS)[number];

export const BINARIES = ["v1", "v2", "v3", "v3-only", "v2-broken", "v2-missing-migration"] as const;
export type BinaryName = (typeof BINARIES)[number];

export const BLOCK_MS = 6000;
export const DEPOSIT_PERIOD_MS = 60_000;
export const VOTING_PERIOD_MS = 60_000;
export const EXPEDITED_VOTING_PERIOD_MS = 30_000;
export const MIN_DEPOSIT = 10_000_000n;
export const EXPEDITED_MIN_DEPOSIT = 50_000_000n;

/**
 * The gov params a run draws, where the reference lets a chain choose what happens to deposits: burned when a
 * proposal misses quorum, is vetoed or is dropped, and the share a cancel withholds, burned or sent to the community
 * pool (the distribution module account).
 */
export interface GovVariant {
  readonly burnVoteQuorum: boolean;
  readonly burnVoteVeto: boolean;
  readonly burnProposalDepositPrevote: boolean;
  /** A decimal string, as the reference stores it. */
  readonly proposalCancelRatio: string;
  readonly proposalCancelDest: "burn" | "community-pool";
}

/** The reference defaults (x/gov/types/v1/params.go), which a run without a drawn variant has. */
export const DEFAULT_GOV_VARIANT: GovVariant = {
  burnVoteQuorum: false,
  burnVoteVeto: true,
  burnProposalDepositPrevote: false,
  proposalCancelRatio: "0.5",
  proposalCancelDest: "burn",
};

/** The variant's params that differ from the reference defaults, as the scenario format writes them. */
function govParamsOf(v: GovVariant | undefined): Record<string, string | boolean> {
  if (v === undefined) return {};
  const out: Record<string, string | boolean> = {};
  if (v.burnVoteQuorum !== DEFAULT_GOV_VARIANT.burnVoteQuorum) out.burnVoteQuorum = v.burnVoteQuorum;
  if (v.burnVoteVeto !== DEFAULT_GOV_VARIANT.burnVoteVeto) out.burnVoteVeto = v.burnVoteVeto;
  if (v.burnProposalDepositPrevote !== DEFAULT_GOV_VARIANT.burnProposalDepositPrevote)
    out.burnProposalDepositPrevote = v.burnProposalDepositPrevote;
  if (v.proposalCancelRatio !== DEFAULT_GOV_VARIANT.proposalCancelRatio)
    out.proposalCancelRatio = v.proposalCancelRatio;
  if (v.proposalCancelDest === "community-pool") out.proposalCancelDest = addressOfName("distribution");
  return out;
}

export interface WorldOptions {
  readonly seed: number;
  /** Default `standard`. */
  readonly variant?: WorldVariant;
  readonly faults?: readonly Fault[];
  /** Sidecar delay per validator in ms; absent = no sidecar for that validator. */
  readonly sidecars?: Readonly<Partial<Record<ValidatorName, number>>>;
  /** The run's gov params; absent = the reference defaults. */
  readonly gov?: GovVariant;
}

const ms = (n: number) => `${n}ms`;

type StoreUpgradesDoc = NonNullable<NonNullable<ScenarioBinary["upgrades"]>[string]["storeUpgrades"]>;

/**
 * The modules (so the stores) `v2` and `v3` mount, the module every other binary mounts besides its own, and plan
 * `v2`'s store upgrades (see the header).
 */
interface StoreShape {
  readonly otherModules?: Record<string, number>;
  readonly v2Modules: Record<string, number>;
  readonly v3Modules: Record<string, number>;
  readonly storeUpgrades?: StoreUpgradesDoc;
}

function storeShapeOf(variant: WorldVariant): StoreShape {
  const plain = { bank: 2 };
  const withFoo = { bank: 2, foo: 1 };
  switch (variant) {
    case "standard":
      return { v2Modules: plain, v3Modules: plain };
    case "store-upgrades":
      return { v2Modules: withFoo, v3Modules: withFoo, storeUpgrades: { added: ["foo"] } };
    case "store-renames":
      return {
        otherModules: { legacy: 1 },
        v2Modules: withFoo,
        v3Modules: withFoo,
        storeUpgrades: { renamed: [{ from: "legacy", to: "foo" }] },
      };
    case "store-deletes":
      return {
        otherModules: { legacy: 1 },
        v2Modules: { bank: 2, legacy: 1 },
        v3Modules: plain,
        storeUpgrades: { deleted: ["legacy"] },
      };
  }
}

/** The world as a scenario document: counterexamples are written by adding steps, `run` and `expect` to it. */
export function worldDocument(o: WorldOptions): ScenarioDocument {
  const nodes: Record<string, { sidecar: { enabled: boolean; delay: string; binaries: Record<string, string> } }> = {};
  for (const v of VALIDATORS) {
    const d = o.sidecars?.[v];
    if (d !== undefined) nodes[v] = { sidecar: { enabled: true, delay: ms(d), binaries: { v2: "v2", v3: "v3" } } };
  }
  const shape = storeShapeOf(o.variant ?? "standard");
  const other = shape.otherModules;
  const v2Upgrade = {
    handler: "migrate" as const,
    ...(shape.storeUpgrades === undefined ? {} : { storeUpgrades: shape.storeUpgrades }),
  };
  return {
    name: "property-world",
    seed: o.seed,
    chain: {
      blockTime: ms(BLOCK_MS),
      validators: VALIDATORS.map((name) => ({ name, power: 100 })),
      gov: {
        maxDepositPeriod: ms(DEPOSIT_PERIOD_MS),
        votingPeriod: ms(VOTING_PERIOD_MS),
        expeditedVotingPeriod: ms(EXPEDITED_VOTING_PERIOD_MS),
        ...govParamsOf(o.gov),
      },
    },
    binaries: {
      v1: other === undefined ? {} : { modules: other },
      v2: { modules: shape.v2Modules, migrations: { bank: [1] }, upgrades: { v2: v2Upgrade } },
      v3: {
        modules: shape.v3Modules,
        migrations: { bank: [1] },
        upgrades: { v2: v2Upgrade, v3: { handler: "noop" } },
      },
      "v3-only": { ...(other === undefined ? {} : { modules: other }), upgrades: { v3: { handler: "noop" } } },
      "v2-broken": {
        ...(other === undefined ? {} : { modules: other }),
        upgrades: { v2: { handler: "fail", failMessage: "v2 migration panicked" } },
      },
      "v2-missing-migration": { modules: { gov: 2, ...other }, upgrades: { v2: { handler: "migrate" } } },
    },
    genesisBinary: "v1",
    ...(Object.keys(nodes).length > 0 ? { nodes } : {}),
    ...(o.faults !== undefined && o.faults.length > 0 ? { options: { faults: [...o.faults] } } : {}),
  };
}

/** The same world as the oracle's input (the oracle reads the scenario shape of binaries). */
export function worldOracleInput(doc: ScenarioDocument): OracleInput {
  const binaries = Object.fromEntries(
    Object.entries(doc.binaries).map(([name, b]) => [
      name,
      {
        modules: b.modules ?? {},
        migrations: b.migrations ?? {},
        upgrades: Object.fromEntries(
          Object.entries(b.upgrades ?? {}).map(([plan, u]) => [
            plan,
            {
              handler: u.handler ?? "migrate",
              ...(u.failMessage === undefined ? {} : { failMessage: u.failMessage }),
            },
          ]),
        ),
      },
    ]),
  );
  return {
    binaries,
    nodes: VALIDATORS.map((name) => ({ name, binary: "v1", power: 100 })),
    genesisBinary: "v1",
  };
}
