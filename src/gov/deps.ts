import type { BankKeeper } from "../bank/keeper.js";
import type { GovConfig, MsgRouter, StakingView } from "./types.js";

/** The gov module account's name; its address is `addressOfName("gov", prefix)` (`govAuthority(prefix)`). */
export const GOV_MODULE = "gov";
/** Withheld cancel deposits sent to this module's address fund the community pool. */
export const DISTRIBUTION_MODULE = "distribution";
/** The module accounts gov moves coins to (deposits held, withheld cancel charges); balances name them. */
export const COIN_MODULES: readonly string[] = [GOV_MODULE, DISTRIBUTION_MODULE];
/** Module name in log lines. */
export const LOG_MODULE = "x/gov";

/** Everything the gov handlers depend on besides the Ctx. */
export interface GovDeps {
  readonly bank: Pick<BankKeeper, "sendToModule" | "sendFromModule" | "burn">;
  readonly staking: StakingView;
  readonly router: MsgRouter;
  readonly config: GovConfig;
  /** The chain's bech32 account prefix (`chain.bech32Prefix`): addresses in messages and params must carry it. */
  readonly bech32Prefix: string;
}
