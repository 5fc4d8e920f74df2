/**
 * The oracle's per-block history (committed states, block keys): an immutable sequence whose `append` and
 * `withLast` cost O(1) instead of copying the whole array per block.
 *
 * Versions share one backing array. A version is (backing, length, last): items 0 … length-2 live in the backing
 * array, item length-1 is `last`. The backing array only ever grows by a push at its end, made by the version that
 * ends exactly there; nothing ever writes to an index a version can see, so every version keeps reading what it
 * was built with. Appending to an older version (a fork, as when a snapshot is stepped twice) copies its prefix
 * first. Iterable, so equal sequences compare equal (vitest's toEqual iterates).
 */
export class History<T> implements Iterable<T> {
  readonly #items: T[];
  readonly #last: T;
  readonly length: number;

  private constructor(items: T[], length: number, last: T) {
    this.#items = items;
    this.length = length;
    this.#last = last;
  }

  /** A history of one item. */
  static of<T>(first: T): History<T> {
    return new History<T>([], 1, first);
  }

  /** Item `i`, or undefined outside 0 … length-1. */
  at(i: number): T | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    return i === this.length - 1 ? this.#last : this.#items[i];
  }

  /** This history with `item` added at the end. */
  append(item: T): History<T> {
    const shared = this.#items.length === this.length - 1;
    const items = shared ? this.#items : this.#items.slice(0, this.length - 1);
    items.push(this.#last);
    return new History(items, this.length + 1, item);
  }

  /** This history with its last item replaced. */
  withLast(item: T): History<T> {
    return new History(this.#items, this.length, item);
  }

  /** As an array in JSON (a history prints as the sequence it is). */
  toJSON(): T[] {
    return [...this];
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.length - 1; i++) yield this.#items[i]!;
    yield this.#last;
  }
}
