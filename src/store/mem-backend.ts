import { Buffer } from "node:buffer";
import type { BackendWrite, StoreBackend } from "./backend.js";
import { scanTree } from "./btree-scan.js";
import { PersistentBTree, type TreeImage } from "./persistent-btree.js";

/**
 * Bytes <-> latin1 strings: one UTF-16 code unit (0..255) per byte, so string order (`<`) equals the byte
 * order of the keys, including "a proper prefix sorts first".
 */
export function bytesToLatin1(b: Uint8Array): string {
  if (nativeLatin1 !== undefined) return nativeLatin1.call(b, 0, b.length);
  return bytesToLatin1Portable(b);
}

/**
 * Node's own latin1 decoding of a byte range (`Buffer.prototype.latin1Slice`, what `buf.toString("latin1")` runs),
 * called on the Uint8Array itself: no Buffer view made, about twice as fast as `fromCharCode.apply` on store keys.
 * The same string for every input (`mem-backend.test.ts`); `bytesToLatin1Portable` where it is absent.
 */
const nativeLatin1 = (
  Buffer.prototype as unknown as { latin1Slice?: (this: Uint8Array, s: number, e: number) => string }
).latin1Slice;

/** bytesToLatin1 without Node's Buffer. */
export function bytesToLatin1Portable(b: Uint8Array): string {
  // fromCharCode.apply takes the typed array as its argument list (no iteration): several times faster than a
  // spread; chunks keep the argument count bounded.
  if (b.length <= CHUNK) return String.fromCharCode.apply(null, b as unknown as number[]);
  let s = "";
  for (let i = 0; i < b.length; i += CHUNK)
    s += String.fromCharCode.apply(null, b.subarray(i, i + CHUNK) as unknown as number[]);
  return s;
}

const CHUNK = 4096;

/** The bytes of `s[from..end)` (bytesToLatin1's inverse). */
export function latin1ToBytes(s: string, from = 0, end = s.length): Uint8Array {
  const out = new Uint8Array(end - from);
  for (let i = from; i < end; i++) out[i - from] = s.charCodeAt(i);
  return out;
}

const bound = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : bytesToLatin1(b));

/** Iterators capture the tree when created (the tree is immutable), hence the snapshot semantics. */
function* toBytes(entries: Iterable<readonly [string, Uint8Array]>): Generator<readonly [Uint8Array, Uint8Array]> {
  for (const [k, v] of entries) yield [latin1ToBytes(k), v];
}

/**
 * The in-memory backend: a persistent B+tree, so `fork()` is O(1) and every iterator is a free snapshot.
 * Stored arrays are shared, never copied: writers hand them over and readers must not mutate them.
 */
export class MemBackend implements StoreBackend {
  #tree: PersistentBTree<Uint8Array>;

  constructor(tree: PersistentBTree<Uint8Array> = PersistentBTree.empty()) {
    this.#tree = tree;
  }

  get(key: Uint8Array): Uint8Array | undefined {
    return this.#tree.get(bytesToLatin1(key));
  }

  /** `get` of the key whose latin1 form (bytesToLatin1) is `key`: for readers that hold keys in that form. */
  getLatin1(key: string): Uint8Array | undefined {
    return this.#tree.get(key);
  }

  iterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]> {
    return toBytes(this.#tree.entries(bound(start), bound(end)));
  }

  reverseIterator(
    start: Uint8Array | undefined,
    end: Uint8Array | undefined,
  ): IterableIterator<readonly [Uint8Array, Uint8Array]> {
    return toBytes(this.#tree.entriesReverse(bound(start), bound(end)));
  }

  /** `iterator` with bounds and keys in latin1 form (a snapshot of this backend, like every iterator). */
  entriesLatin1(start: string, end: string | undefined): IterableIterator<readonly [string, Uint8Array]> {
    return this.#tree.entries(start, end);
  }

  /** `reverseIterator` with bounds and keys in latin1 form. */
  entriesReverseLatin1(start: string, end: string | undefined): IterableIterator<readonly [string, Uint8Array]> {
    return this.#tree.entriesReverse(start, end);
  }

  /** The first entry with start <= key < end, keys in latin1 form (`entriesLatin1(start, end).next()`). */
  firstLatin1(start: string, end: string | undefined): readonly [string, Uint8Array] | undefined {
    return this.#tree.first(start, end);
  }

  /** The last entry with start <= key < end, keys in latin1 form (`entriesReverseLatin1(start, end).next()`). */
  lastLatin1(start: string, end: string | undefined): readonly [string, Uint8Array] | undefined {
    return this.#tree.last(start, end);
  }

  /** scanTree (btree-scan.ts) over the entries with start <= key < end, keys in latin1 form (skips, stops by `fn`). */
  scanLatin1(
    start: string,
    end: string | undefined,
    fn: (key: string, value: Uint8Array) => string | undefined | null,
  ) {
    scanTree(this.#tree.image(), start, end, fn);
  }

  /** Calls `fn` for each entry with start <= key < end, keys in latin1 form, ascending (no per-entry arrays). */
  forEachLatin1(start: string, end: string | undefined, fn: (key: string, value: Uint8Array) => void): void {
    this.#tree.forEachEntry(start, end, fn);
  }

  write(batch: readonly BackendWrite[]): void {
    if (batch.length === 0) return;
    this.#tree = this.#tree.edit((s) => {
      for (const w of batch) {
        const k = bytesToLatin1(w.key);
        if (w.value === undefined) s.delete(k);
        else s.set(k, w.value);
      }
    });
  }

  /** The content as plain data (O(1), shared with this backend; later writes here do not show in it). */
  image(): TreeImage<Uint8Array> {
    return this.#tree.image();
  }

  static fromImage(image: TreeImage<Uint8Array>): MemBackend {
    return new MemBackend(PersistentBTree.fromImage(image));
  }

  fork(): MemBackend {
    return new MemBackend(this.#tree);
  }

  /** Number of stored entries (O(n); for tests and diagnostics). */
  size(): number {
    return this.#tree.size();
  }
}
