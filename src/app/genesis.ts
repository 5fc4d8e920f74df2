import type { BankKeeper } from "../bank/keeper.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, ok, type Result } from "../core/errors.js";
import type { Params } from "../gen/chain/gov/v1/gov_pb.js";
import type { Plan } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { type GovGenesisProposals, initGenesisProposals } from "../gov/genesis.js";
import type { GovKeeper } from "../gov/keeper.js";
import type { GovConfig } from "../gov/types.js";
import type { UpgradeKeeper } from "../upgrade/keeper.js";
import { doneKey, planKey } from "../upgrade/keys.js";
import { encodePlan } from "../upgrade/plan.js";
import type { ModuleManager } from "./module-manager.js";

/**
 * A chain's genesis and InitChain (Cosmos SDK v0.50 app.go `InitChainer`, the legacy path): the facts every node
 * shares, and the state they write into block 1's working state, in this order:
 *
 * 1. bank: the genesis balances, minted;
 * 2. gov: the params (x/gov InitGenesis);
 * 3. upgrade: the module version map of the binary's module manager;
 * 4. for a chain imported from a profile: gov's proposals and deposits, then the upgrade store's pending plan and
 *    done markers as the live chain held them.
 */
/** Chain-wide facts every node shares (genesis). */
export interface ChainGenesis {
  readonly chainId: string;
  /**
   * The bech32 account prefix (`chain.bech32Prefix`, default `chain`): every account, module and authority address,
   * and the validators' `valoper`/`valcons` prefixes derive from it.
   */
  readonly bech32Prefix: string;
  /**
   * Validators by name; a validator votes from `operator` when given (the devnet: its key's address), else from its
   * name-derived address (scenarios).
   */
  readonly validators: readonly { readonly name: string; readonly power: number; readonly operator?: string }[];
  /** Genesis balances by bech32 address. */
  readonly balances: readonly {
    readonly address: string;
    readonly coins: readonly { denom: string; amount: bigint }[];
  }[];
  readonly govParams: Params;
  readonly govConfig: GovConfig;
  /** CometBFT's `initial_height` (the first block, whose version the store commits first); absent: 1. */
  readonly initialHeight?: number;
  /** State a profile imported (a scenario `from:` it), written by InitChain after the params. */
  readonly imported?: ImportedGenesis;
}

/**
 * What a chain imported from a profile holds at genesis besides balances and params: gov's proposals and deposits (x/gov
 * genesis, deposits already in the gov module account's genesis balance), the upgrade store's pending plan and done
 * markers, as the live chain held them.
 */
export interface ImportedGenesis {
  readonly gov: GovGenesisProposals;
  readonly plan: Plan | undefined;
  readonly done: readonly { readonly name: string; readonly height: bigint }[];
}

/** The keepers and module manager InitChain writes through. */
export interface GenesisApp {
  readonly bank: BankKeeper;
  readonly gov: GovKeeper;
  readonly upgrade: UpgradeKeeper;
  readonly mm: ModuleManager;
}

/** InitChain: balances, gov params and the module version map (the legacy InitChainer path). */
export function initChain(ctx: Ctx, genesis: ChainGenesis, app: GenesisApp): Result<void, ChainError> {
  for (const b of genesis.balances) {
    const r = app.bank.mint(ctx, b.address, b.coins);
    if (!r.ok) return r;
  }
  const g = app.gov.initGenesis(ctx, genesis.govParams);
  if (!g.ok) return g;
  app.upgrade.setModuleVersionMap(ctx, app.mm.getVersionMap());
  const imported = genesis.imported;
  if (imported === undefined) return ok(undefined);
  const proposals = initGenesisProposals(ctx, app.bank, imported.gov);
  if (!proposals.ok) return proposals;
  // The upgrade store as the live chain held it: the pending plan (x/upgrade's plan key) and the done markers.
  const upgrade = ctx.kv("upgrade");
  if (imported.plan !== undefined) upgrade.set(planKey(), encodePlan(imported.plan));
  for (const d of imported.done) upgrade.set(doneKey(d.name, d.height), Uint8Array.of(1));
  return ok(undefined);
}
