/**
 * Refilling a collection in place: for objects that hold their lists and tables in `readonly` fields and take another
 * object's contents (a forked session takes the records of the session it forks, harness/session-records.ts).
 */

/** Empties `target` and fills it with `items` in order (a loop: the lists can be longer than an argument list). */
export function refill<T>(target: T[] | Set<T>, items: readonly T[]): void;
export function refill<K, V>(target: Map<K, V>, items: readonly (readonly [K, V])[]): void;
export function refill(target: unknown[] | Set<unknown> | Map<unknown, unknown>, items: readonly unknown[]): void {
  if (Array.isArray(target)) {
    target.length = 0;
    for (const x of items) target.push(x);
  } else if (target instanceof Set) {
    target.clear();
    for (const x of items) target.add(x);
  } else {
    target.clear();
    for (const [k, v] of items as (readonly [unknown, unknown])[]) target.set(k, v);
  }
}
