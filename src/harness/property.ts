import type { Session } from "./session.js";
import type { WorldVariant } from "./world.js";

/**
 * A property of the upgrade lifecycle, first-class: what must always (or eventually) hold, and the check that
 * decides it over a property-test session. The harness runs whatever properties it is given and names none;
 * the catalogue lives in `properties/` (one file each, `properties/index.ts` the registry).
 *
 * - `always` properties are checked after every command. Their `check` only reads the session.
 * - `end` properties are checked once, after the last command, in the order given. Their `check` may drive the
 *   session further (the liveness heal records its steps, so a counterexample replays them).
 */
export interface Property {
  /** Kebab-case, what holds (`graceful-halt`); the CLI's `--property` value and the campaign's unit key. */
  readonly name: string;
  /** One line: `always: ...` or `eventually: ...`, as the reports print it. */
  readonly statement: string;
  readonly kind: "always" | "end";
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
  check(view: Session): Verdict;
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

/** Checks `properties` of `kind` in order; throws a Violation for the first that does not hold. */
export function checkProperties(s: Session, properties: readonly Property[], kind: Property["kind"]): void {
  for (const p of properties) {
    if (p.kind !== kind) continue;
    const v = p.check(s);
    if (!v.holds) throw new Violation(p.name, v.detail);
  }
}
