/**
 * Planted bugs (FoundationDB's BUGGIFY, TigerBeetle's fault atlas): each fault turns the real keeper, app or
 * engine into a wrong one in one specific way, so that a property can be shown to catch it. A scenario enables
 * them with `options.faults`, which is how a counterexample found under a fault replays with `chainsim run`.
 * Never enabled unless asked for.
 */
export const FAULTS = {
  "off-by-one-due-height": "the PreBlocker sees every plan one block earlier than its height",
  "skip-done-marker": "ApplyUpgrade does not write the done marker",
  "missed-halt": "a binary without the handler does not halt at a due plan; it continues with the plan stored",
  "no-early-halt": "a binary with the handler does not halt before the plan height",
  "ignore-cancel": "MsgCancelUpgrade succeeds without clearing the plan",
  "keep-first-schedule": "ScheduleUpgrade keeps an existing plan instead of replacing it",
  "allow-past-plans": "ScheduleUpgrade accepts a plan whose height is in the past",
  "allow-completed-names": "ScheduleUpgrade accepts a name that was already applied",
  "store-upgrades-wrong-height": "the store loader applies store upgrades only when the upgrade height is last+2",
  "unanimous-consensus": "a block commits only with all of the voting power, not more than 2/3",
  "nondeterministic-genesis": "the genesis trace carries a process-global counter",
} as const;

export type Fault = keyof typeof FAULTS;
export const FAULT_NAMES = Object.keys(FAULTS) as Fault[];

export type FaultSet = ReadonlySet<Fault>;
export const NO_FAULTS: FaultSet = new Set();
