import type { Fault } from "../faults/index.js";
import type { Session } from "./session.js";
import type { SessionView } from "./session-view.js";
import type { WorldVariant } from "./world.js";

/**
 * A property of the upgrade lifecycle, first-class: what must always (or eventually) hold, and the check that
 * decides it over a property-test session. The harness runs whatever properties it is given and names none;
 * the catalogue lives in `properties/` (one file each, `properties/index.ts` the registry).
 *
 * - `always` properties are checked after every command. Their `check` reads the session through its read-only
 *   view (`SessionView`).
 * - `end` properties are checked once, after the last command, in the order given. Their `check` is given the
 *   session itself and may drive it further (the liveness heal records its steps, so a counterexample replays them).
 *
 * Per-run state is data: a property that remembers anything between its checks of one run (what it already found
 * to hold, a model it steps) declares it as `S` and makes it in `init` (given the session's view, so a state may
 * start from the world). The harness calls `init` once per run, before the property's first check, and passes the
 * same value to every check of that run (`Session.stateOf`); nothing is kept anywhere else, so the property's file
 * shows everything it keeps. Without `init` it keeps nothing. `init` is required exactly when `S` excludes
 * `undefined`. A state is data `structuredClone` copies (no functions, no class instances): a session forked from a
 * shared prefix (harness/shared-prefix.ts) gets a copy of it.
 */
export type Property<S = unknown> = PropertyFields &
  (undefined extends S ? { readonly init?: (view: SessionView) => S } : { readonly init: (view: SessionView) => S }) &
  (
    | { readonly kind: "always"; check(view: SessionView, state: S): Verdict }
    | { readonly kind: "end"; check(session: Session, state: S): Verdict }
  );

/** What every property declares, whatever it keeps. */
interface PropertyFields {
  /** Kebab-case, what holds (`graceful-halt`); the CLI's `--property` value and the campaign's unit key. */
  readonly name: string;
  /** One line: `always: ...` or `eventually: ...`, as the reports print it. */
  readonly statement: string;
  /**
   * The planted faults (src/faults/) this property catches: its suite (test/kit/property-suite.ts) plants each and
   * expects a shrunk counterexample, and the catalog test (properties/faults.test.ts) holds every fault to being
   * declared by at least one registered property.
   */
  readonly catches: readonly Fault[];
  /**
   * The worlds the property is checked in, each run drawing one of them (after the rest of its input, so the runs
   * of a one-world property draw what they always drew); the standard world when absent (see world.ts).
   */
  readonly worlds?: readonly [WorldVariant, ...WorldVariant[]];
  /**
   * A campaign gives this property `runsMultiplier` times its runs per property (default 1): the properties that
   * compare the chain with an independent model catch most bugs, and their rarer paths need more runs to be reached.
   */
  readonly runsMultiplier?: number;
}

/** A check's outcome: the property holds, or a readable account of what broke. */
export type Verdict = { readonly holds: true } | { readonly holds: false; readonly detail: string };

export const HOLDS: Verdict = { holds: true };
export const violated = (detail: string): Verdict => ({ holds: false, detail });

/** A property violation as fast-check sees it (thrown from a command or the end of a run). */
export class Violation extends Error {
  constructor(
    readonly property: string,
    readonly detail: string,
  ) {
    super(`${property}: ${detail}`);
  }
}

/** Checks one property on session `s` with its state for this run (made by its `init` on its first check). */
export const checkProperty = (s: Session, p: Property): Verdict => p.check(s, s.stateOf(p));

/** Checks `properties` of `kind` in order (checkProperty); throws a Violation for the first that does not hold. */
export function checkProperties(s: Session, properties: readonly Property[], kind: Property["kind"]): void {
  for (const p of properties) {
    if (p.kind !== kind) continue;
    const v = checkProperty(s, p);
    if (!v.holds) throw new Violation(p.name, v.detail);
  }
}
