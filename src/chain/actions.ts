import type { CoinInput, PlanInput, VoteOptionName } from "../app/types.js";

/** Upgrade messages as a scenario writes them; `authority` defaults per action (see the engine). */
export type UpgradeMsgSpec =
  | { readonly type: "softwareUpgrade"; readonly authority?: string; readonly plan: PlanInput }
  | { readonly type: "cancelUpgrade"; readonly authority?: string };

/** The closed set of scenario actions the engine executes. Accounts, validators and nodes are named. */
export type Action =
  | {
      readonly type: "submitProposal";
      /** Label later actions use to refer to the proposal. */
      readonly id: string;
      readonly proposer: string;
      readonly title: string;
      readonly summary: string;
      readonly metadata: string;
      readonly deposit: readonly CoinInput[];
      readonly expedited: boolean;
      readonly messages: readonly UpgradeMsgSpec[];
    }
  | {
      readonly type: "deposit";
      readonly proposal: string;
      readonly from: string;
      readonly amount: readonly CoinInput[];
    }
  | { readonly type: "vote"; readonly proposal: string; readonly votes: readonly (readonly [string, VoteOptionName])[] }
  | { readonly type: "cancelProposal"; readonly proposal: string; readonly from: string }
  | { readonly type: "tx"; readonly from: string; readonly messages: readonly UpgradeMsgSpec[] }
  | { readonly type: "authorityExec"; readonly messages: readonly UpgradeMsgSpec[] }
  | {
      readonly type: "swapBinary";
      readonly node: string;
      readonly binary: string;
      readonly skipUpgradeHeights?: readonly number[];
    }
  | { readonly type: "restart"; readonly node: string; readonly skipUpgradeHeights?: readonly number[] }
  | { readonly type: "stop"; readonly node: string }
  /** A checkpoint evaluated by the driver (scenario expectations); the engine only records that it ran. */
  | { readonly type: "check"; readonly run: () => { ok: boolean; error?: string } };

export type Trigger =
  | { readonly type: "height"; readonly height: number }
  | { readonly type: "time"; readonly timeMs: number }
  | {
      readonly type: "halt";
      /** Node name or "any". */
      readonly node: string;
      readonly kind?: string;
      readonly height?: number;
      readonly delayMs: number;
    }
  /** Run at the current point of the simulation (library use). */
  | { readonly type: "now" };

export interface Step {
  readonly index: number;
  readonly label?: string;
  readonly trigger: Trigger;
  readonly action: Action;
}

export interface StepResult {
  readonly index: number;
  readonly label: string | null;
  readonly action: Action["type"];
  /** Block the step's transactions landed in, or the chain height when a node operation ran. */
  readonly height: number | null;
  readonly ok: boolean;
  readonly error: string | null;
  readonly result: Readonly<Record<string, unknown>> | null;
}
