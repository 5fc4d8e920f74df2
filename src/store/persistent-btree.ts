/**
 * An immutable sorted map from strings (compared by UTF-16 code units, i.e. `<`) to values, as a B+tree with
 * path copying. A tree value never changes once published: every edit returns a new root and shares all
 * untouched nodes, so a copy of the map is O(1) and an iterator over a root is a stable snapshot.
 *
 * Edits inside one `edit` session are transient: nodes created by that session carry its owner token and are
 * updated in place, so a batch of n edits copies each touched node at most once. Nodes from earlier sessions
 * (shared with other roots) are always copied before a change.
 */

const MAX_ENTRIES = 64;

type Owner = object;

interface Leaf<V> {
  readonly leaf: true;
  owner: Owner | undefined;
  keys: string[];
  vals: V[];
}

interface Branch<V> {
  readonly leaf: false;
  owner: Owner | undefined;
  /** keys[i] is the smallest key under kids[i]. */
  keys: string[];
  kids: Node<V>[];
}

type Node<V> = Leaf<V> | Branch<V>;

/**
 * A tree as plain data: its root node (plain objects and arrays all the way down). Shared, never copied, between
 * the trees that hold it: no edit changes a node it did not create in its own session.
 */
export type TreeImage<V> = Node<V>;

/** First index i with keys[i] >= key (keys.length when none). */
export function lowerBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index i with keys[i] > key. */
function upperBound(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The child of a branch whose range contains `key` (the first child for keys below every separator). */
export const childFor = (keys: readonly string[], key: string): number => Math.max(0, upperBound(keys, key) - 1);

function own<V>(node: Node<V>, owner: Owner): Node<V> {
  if (node.owner === owner) return node;
  return node.leaf
    ? { leaf: true, owner, keys: node.keys.slice(), vals: node.vals.slice() }
    : { leaf: false, owner, keys: node.keys.slice(), kids: node.kids.slice() };
}

function split<V>(node: Node<V>, owner: Owner): [Node<V>, Node<V>] {
  const half = node.keys.length >>> 1;
  if (node.leaf) {
    const right: Leaf<V> = { leaf: true, owner, keys: node.keys.splice(half), vals: node.vals.splice(half) };
    return [node, right];
  }
  const right: Branch<V> = { leaf: false, owner, keys: node.keys.splice(half), kids: node.kids.splice(half) };
  return [node, right];
}

function insert<V>(node: Node<V>, key: string, val: V, owner: Owner): [Node<V>] | [Node<V>, Node<V>] {
  if (node.leaf) {
    const i = lowerBound(node.keys, key);
    const n = own(node, owner) as Leaf<V>;
    if (i < n.keys.length && n.keys[i] === key) {
      n.vals[i] = val;
      return [n];
    }
    n.keys.splice(i, 0, key);
    n.vals.splice(i, 0, val);
    return n.keys.length > MAX_ENTRIES ? split(n, owner) : [n];
  }
  const i = childFor(node.keys, key);
  const parts = insert(node.kids[i]!, key, val, owner);
  const n = own(node, owner) as Branch<V>;
  n.kids[i] = parts[0];
  n.keys[i] = parts[0].keys[0]!;
  if (parts.length === 2) {
    n.kids.splice(i + 1, 0, parts[1]);
    n.keys.splice(i + 1, 0, parts[1].keys[0]!);
  }
  return n.kids.length > MAX_ENTRIES ? split(n, owner) : [n];
}

/** Returns the node unchanged (same object) when the key is absent, undefined when the node became empty. */
function remove<V>(node: Node<V>, key: string, owner: Owner): Node<V> | undefined {
  if (node.leaf) {
    const i = lowerBound(node.keys, key);
    if (i >= node.keys.length || node.keys[i] !== key) return node;
    if (node.keys.length === 1) return undefined;
    const n = own(node, owner) as Leaf<V>;
    n.keys.splice(i, 1);
    n.vals.splice(i, 1);
    return n;
  }
  const i = childFor(node.keys, key);
  const kid = node.kids[i]!;
  const next = remove(kid, key, owner);
  if (next === kid) return node;
  if (next === undefined && node.kids.length === 1) return undefined;
  const n = own(node, owner) as Branch<V>;
  if (next === undefined) {
    n.kids.splice(i, 1);
    n.keys.splice(i, 1);
  } else {
    n.kids[i] = next;
    n.keys[i] = next.keys[0]!;
  }
  return n;
}

function count<V>(node: Node<V>): number {
  if (node.leaf) return node.keys.length;
  let n = 0;
  for (const k of node.kids) n += count(k);
  return n;
}

/** One step of the path from the root to a leaf position. */
interface Frame<V> {
  readonly node: Branch<V>;
  index: number;
}

export class PersistentBTree<V> {
  readonly #root: Node<V>;

  private constructor(root: Node<V>) {
    this.#root = root;
  }

  /** The tree as plain data (O(1)); `fromImage` gives the same tree back, also from a structuredClone of it. */
  image(): TreeImage<V> {
    return this.#root;
  }

  static fromImage<V>(image: TreeImage<V>): PersistentBTree<V> {
    return new PersistentBTree<V>(image);
  }

  static empty<V>(): PersistentBTree<V> {
    return new PersistentBTree<V>({ leaf: true, owner: undefined, keys: [], vals: [] });
  }

  get(key: string): V | undefined {
    let node = this.#root;
    while (!node.leaf) node = node.kids[childFor(node.keys, key)]!;
    const i = lowerBound(node.keys, key);
    return i < node.keys.length && node.keys[i] === key ? node.vals[i] : undefined;
  }

  /** Number of entries (O(n); for tests and diagnostics). */
  size(): number {
    return count(this.#root);
  }

  /**
   * Applies the edits made through `set`/`delete` of the session and returns the new tree; this tree is
   * unchanged. The session must not be used after `edit` returns.
   */
  edit(body: (session: { set(key: string, val: V): void; delete(key: string): void }) => void): PersistentBTree<V> {
    const owner: Owner = {};
    let root = this.#root;
    body({
      set(key, val) {
        const parts = insert(root, key, val, owner);
        root =
          parts.length === 1
            ? parts[0]
            : { leaf: false, owner, keys: [parts[0].keys[0]!, parts[1].keys[0]!], kids: [parts[0], parts[1]] };
      },
      delete(key) {
        let next = remove(root, key, owner);
        if (next === undefined) next = { leaf: true, owner, keys: [], vals: [] };
        while (!next.leaf && next.kids.length === 1) next = next.kids[0]!;
        root = next;
      },
    });
    return root === this.#root ? this : new PersistentBTree(root);
  }

  /** Entries with start <= key < end (bounds optional), ascending. A snapshot of this tree. */
  *entries(start: string | undefined, end: string | undefined): Generator<readonly [string, V]> {
    const stack: Frame<V>[] = [];
    let node = this.#root;
    while (!node.leaf) {
      const index = start === undefined ? 0 : childFor(node.keys, start);
      stack.push({ node, index });
      node = node.kids[index]!;
    }
    let i = start === undefined ? 0 : lowerBound(node.keys, start);
    for (;;) {
      for (; i < node.keys.length; i++) {
        const k = node.keys[i]!;
        if (end !== undefined && k >= end) return;
        yield [k, node.vals[i]!];
      }
      let frame = stack.at(-1);
      while (frame !== undefined && frame.index + 1 >= frame.node.kids.length) {
        stack.pop();
        frame = stack.at(-1);
      }
      if (frame === undefined) return;
      frame.index++;
      node = frame.node.kids[frame.index]!;
      while (!node.leaf) {
        stack.push({ node, index: 0 });
        node = node.kids[0]!;
      }
      i = 0;
    }
  }

  /**
   * Calls `fn` for each entry with start <= key < end (bounds optional), ascending, over this tree (a snapshot):
   * `entries` without a generator or a pair per entry, for the hot scans (content hashes).
   */
  forEachEntry(start: string | undefined, end: string | undefined, fn: (key: string, val: V) => void): void {
    const visit = (node: Node<V>): boolean => {
      if (node.leaf) {
        for (let i = start === undefined ? 0 : lowerBound(node.keys, start); i < node.keys.length; i++) {
          const k = node.keys[i]!;
          if (end !== undefined && k >= end) return false;
          fn(k, node.vals[i]!);
        }
        return true;
      }
      for (let i = start === undefined ? 0 : childFor(node.keys, start); i < node.kids.length; i++) {
        // keys[i] bounds kids[i] from below for i > 0 (keys[0] may lag an insert below it).
        if (i > 0 && end !== undefined && node.keys[i]! >= end) return false;
        if (!visit(node.kids[i]!)) return false;
      }
      return true;
    };
    visit(this.#root);
  }

  /**
   * The first entry with start <= key < end (bounds optional), or undefined: `entries(start, end).next()` without
   * a generator, for point seeks (a historical read is one or two of them per key).
   */
  first(start: string | undefined, end: string | undefined): readonly [string, V] | undefined {
    return firstIn(this.#root, start, end);
  }

  /** The last entry with start <= key < end (bounds optional), or undefined: `entriesReverse(start, end).next()`. */
  last(start: string | undefined, end: string | undefined): readonly [string, V] | undefined {
    const r = lastIn(this.#root, start, end);
    return r === BELOW ? undefined : r;
  }

  /** Entries with start <= key < end (bounds optional), descending. A snapshot of this tree. */
  *entriesReverse(start: string | undefined, end: string | undefined): Generator<readonly [string, V]> {
    const stack: Frame<V>[] = [];
    let node = this.#root;
    while (!node.leaf) {
      const index = end === undefined ? node.kids.length - 1 : lowerBound(node.keys, end) - 1;
      if (index < 0) return;
      stack.push({ node, index });
      node = node.kids[index]!;
    }
    let i = (end === undefined ? node.keys.length : lowerBound(node.keys, end)) - 1;
    for (;;) {
      for (; i >= 0; i--) {
        const k = node.keys[i]!;
        if (start !== undefined && k < start) return;
        yield [k, node.vals[i]!];
      }
      let frame = stack.at(-1);
      while (frame !== undefined && frame.index === 0) {
        stack.pop();
        frame = stack.at(-1);
      }
      if (frame === undefined) return;
      frame.index--;
      node = frame.node.kids[frame.index]!;
      while (!node.leaf) {
        stack.push({ node, index: node.kids.length - 1 });
        node = node.kids[node.kids.length - 1]!;
      }
      i = node.keys.length - 1;
    }
  }
}

/** `first` below `node`; a branch's keys[i] bounds kids[i] from below for i > 0 (keys[0] may lag an insert). */
function firstIn<V>(
  node: Node<V>,
  start: string | undefined,
  end: string | undefined,
): readonly [string, V] | undefined {
  if (node.leaf) {
    const i = start === undefined ? 0 : lowerBound(node.keys, start);
    if (i >= node.keys.length) return undefined;
    const k = node.keys[i]!;
    return end !== undefined && k >= end ? undefined : [k, node.vals[i]!];
  }
  for (let i = start === undefined ? 0 : childFor(node.keys, start); i < node.kids.length; i++) {
    if (i > 0 && end !== undefined && node.keys[i]! >= end) return undefined;
    const r = firstIn(node.kids[i]!, start, end);
    if (r !== undefined) return r;
  }
  return undefined;
}

/** `lastIn`'s answer when the greatest key below `end` is below `start`: nothing further left can match. */
const BELOW = Symbol("below");

/** `last` below `node`: the entry, undefined (no key below `end` here: look left), or BELOW (stop). */
function lastIn<V>(
  node: Node<V>,
  start: string | undefined,
  end: string | undefined,
): readonly [string, V] | undefined | typeof BELOW {
  if (node.leaf) {
    const i = (end === undefined ? node.keys.length : lowerBound(node.keys, end)) - 1;
    if (i < 0) return undefined;
    const k = node.keys[i]!;
    return start !== undefined && k < start ? BELOW : [k, node.vals[i]!];
  }
  for (let i = end === undefined ? node.kids.length - 1 : lowerBound(node.keys, end) - 1; i >= 0; i--) {
    const r = lastIn(node.kids[i]!, start, end);
    if (r !== undefined) return r;
  }
  return undefined;
}
