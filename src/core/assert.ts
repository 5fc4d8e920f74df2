/** A broken invariant: a bug in chainsim, never a user's mistake (those are results). */
export class AssertionError extends Error {
  override readonly name = "AssertionError";
}

/**
 * States an invariant the code relies on; throws `AssertionError` with `message` when it does not hold. For what
 * the types cannot say (a node found by the name the engine itself recorded, one result per transaction), where a
 * `!` would hide the assumption.
 */
export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new AssertionError(message);
}

/** The value, asserted present. */
export function present<T>(value: T | undefined, message: string): T {
  if (value === undefined) throw new AssertionError(message);
  return value;
}
