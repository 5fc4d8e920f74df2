import type { CoinInput, UpgradeMessage, VoteOptionName } from "../app/types.js";
import type { HaltKind } from "../upgrade/halt.js";

/**
 * The chain's domain vocabulary of steps: what to do (`Action`), when (`Trigger`), and the outcome (`StepResult`).
 * The scenario resolver produces these directly; the property harness builds them too. Plain data throughout: a
 * check is a reference (`{kind: "check", id}`) that the engine resolves through the callback it was created with.
 * Accounts, validators and nodes are named; proposals by their label.
 */
export type Action =
  | {
      readonly kind: "submitProposal";
      /** Label later actions use to refer to the proposal. */
      readonly id: string;
      readonly proposer: string;
      readonly title: string;
      readonly summary: string;
      readonly metadata: string;
      readonly deposit: readonly CoinInput[];
      readonly expedited: boolean;
      readonly messages: readonly UpgradeMessage[];
    }
  | {
      readonly kind: "deposit";
      readonly proposal: string;
      readonly from: string;
      readonly amount: readonly CoinInput[];
    }
  /** Voter → option, one vote transaction each, in map order. */
  | { readonly kind: "vote"; readonly proposal: string; readonly votes: ReadonlyMap<string, VoteOptionName> }
  | { readonly kind: "cancelProposal"; readonly proposal: string; readonly from: string }
  | { readonly kind: "tx"; readonly from: string; readonly messages: readonly UpgradeMessage[] }
  | { readonly kind: "authorityExec"; readonly messages: readonly UpgradeMessage[] }
  | {
      readonly kind: "swapBinary";
      readonly node: string;
      readonly binary: string;
      /** Absent: keep the node's current skip heights. */
      readonly skipUpgradeHeights?: readonly number[];
    }
  | { readonly kind: "restart"; readonly node: string; readonly skipUpgradeHeights?: readonly number[] }
  | { readonly kind: "stop"; readonly node: string }
  /**
   * An operator writes `content` as the node's `data/upgrade-info.json`, as is: a hand edit or a corrupt file. The
   * running process does not read it; its next start and its sidecar do.
   */
  | { readonly kind: "writeUpgradeInfo"; readonly node: string; readonly content: string }
  /** A checkpoint evaluated by the driver (e.g. scenario expectations) through the engine's `check` callback. */
  | { readonly kind: "check"; readonly id: number };

export type ActionKind = Action["kind"];

export type Trigger =
  | { readonly kind: "height"; readonly height: number }
  | { readonly kind: "time"; readonly timeMs: number }
  | {
      readonly kind: "halt";
      /** null: any node. */
      readonly node: string | null;
      /** Absent: any kind. */
      readonly haltKind?: HaltKind;
      /** Absent: any height. */
      readonly height?: number;
      readonly delayMs: number;
    }
  /** Run at the current point of the simulation (library use). */
  | { readonly kind: "now" };

export interface Step<A = Action, T = Trigger> {
  /** Position in the file's `steps` list (or past it, for steps added while running). */
  readonly index: number;
  readonly label?: string;
  readonly trigger: T;
  readonly action: A;
}

/** Resolves a check step: its failures joined, or ok. Injected into the engine; called when the step runs. */
export type CheckRunner = (id: number) => { readonly ok: boolean; readonly error?: string };

export interface StepResult {
  readonly index: number;
  readonly label: string | null;
  readonly action: ActionKind;
  /** Block the step's transactions landed in, or the chain height when a node operation ran. */
  readonly height: number | null;
  readonly ok: boolean;
  readonly error: string | null;
  readonly result: Readonly<Record<string, unknown>> | null;
}
