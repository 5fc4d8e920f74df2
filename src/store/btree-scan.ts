import { AssertionError } from "../core/assert.js";
import { childFor, lowerBound, type TreeImage } from "./persistent-btree.js";

/** What a scan's callback returns: undefined to go on, a key above the current one to skip to, or null to stop. */
export type ScanStep = string | undefined | null;
type Fn<V> = (key: string, val: V) => ScanStep;
type Leaf<V> = Extract<TreeImage<V>, { readonly leaf: true }>;
type Branch<V> = Extract<TreeImage<V>, { readonly leaf: false }>;
interface Frame<V> {
  readonly node: Branch<V>;
  index: number;
}

/**
 * Walks the entries of a PersistentBTree (its image: a snapshot) with start <= key < end ascending, calling `fn` on
 * each: it goes on, skips ahead (the walk resumes at the first entry at or above the key it returns: a binary search
 * in the leaf when that key is there, a descent from the root otherwise) or stops. One descent for a walk over
 * neighbouring groups of keys instead of two seeks per group (historical-mem-kv.ts reads a past version this way).
 */
export function scanTree<V>(root: TreeImage<V>, start: string, end: string | undefined, fn: Fn<V>): void {
  let from: string | null = start;
  // Each pass descends to `from`, which only moves forward (asserted in scanFrom): bounded by the range's keys.
  while (from !== null) {
    const stack: Frame<V>[] = [];
    let node = root;
    while (!node.leaf) {
      const index = childFor(node.keys, from);
      stack.push({ node, index });
      node = node.kids[index]!;
    }
    from = scanFrom(node, lowerBound(node.keys, from), stack, end, fn);
  }
}

/** scanTree from entry `i` of `leaf` (the path to it on `stack`): null when done, or the key a skip resumes at. */
function scanFrom<V>(leaf: Leaf<V>, i: number, stack: Frame<V>[], end: string | undefined, fn: Fn<V>): string | null {
  let node = leaf;
  for (;;) {
    const keys = node.keys;
    for (; i < keys.length; i++) {
      const k = keys[i]!;
      if (end !== undefined && k >= end) return null;
      const step = fn(k, node.vals[i]!);
      if (step === undefined) continue;
      if (step === null) return null;
      if (!(step > k))
        throw new AssertionError(`scan: skip to ${JSON.stringify(step)} is not above ${JSON.stringify(k)}`);
      if (step > keys[keys.length - 1]!) return step;
      i = lowerBound(keys, step) - 1;
    }
    let frame = stack.at(-1);
    while (frame !== undefined && frame.index + 1 >= frame.node.kids.length) {
      stack.pop();
      frame = stack.at(-1);
    }
    if (frame === undefined) return null;
    frame.index++;
    let n = frame.node.kids[frame.index]!;
    while (!n.leaf) {
      stack.push({ node: n, index: 0 });
      n = n.kids[0]!;
    }
    node = n;
    i = 0;
  }
}
