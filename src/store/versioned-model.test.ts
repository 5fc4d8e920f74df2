import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromHex, toHex } from "../core/bytes.js";
import type { KVStore } from "../core/kv.js";
import { appHash, contentHash } from "./app-hash.js";
import type { BackendWrite, StoreBackend } from "./backend.js";
import { MemBackend } from "./mem-backend.js";
import { earliestRetained, PRUNE_EVERYTHING, PRUNE_NOTHING, type PruningOptions } from "./pruning.js";
import { VersionedMultiStore } from "./versioned.js";

type State = Map<string, Map<string, string>>; // store -> hex key -> hex value
type Write = { readonly store: string; readonly key: string; readonly value: string | undefined };
type Op =
  | { readonly kind: "write"; readonly w: Write }
  | { readonly kind: "branch"; readonly ws: readonly Write[]; readonly keep: boolean }
  | { readonly kind: "commit" }
  | { readonly kind: "discard" };

const STORES = ["acc", "bank", "gov"];
const keyHex = fc.constantFrom("", "00", "0000", "01", "0100", "01ff", "7f", "ff", "ff00", "ffff", "02", "0201");
const write: fc.Arbitrary<Write> = fc.record({
  store: fc.constantFrom(...STORES),
  key: keyHex,
  value: fc.option(fc.constantFrom("", "00", "01", "ff", "0a0b"), { nil: undefined }),
});
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: write.map((w) => ({ kind: "write" as const, w })) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("branch" as const),
      ws: fc.array(write, { maxLength: 4 }),
      keep: fc.boolean(),
    }),
  },
  { weight: 4, arbitrary: fc.constant({ kind: "commit" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "discard" as const }) },
);
const pruning: fc.Arbitrary<PruningOptions> = fc.oneof(
  fc.constant(PRUNE_EVERYTHING),
  fc.constant(PRUNE_NOTHING),
  fc.record({
    strategy: fc.constant("custom" as const),
    keepRecent: fc.integer({ min: 2, max: 6 }),
    interval: fc.integer({ min: 10, max: 13 }),
  }),
);

const copy = (st: State): State => new Map([...st].map(([n, m]) => [n, new Map(m)]));
const applyWrite = (kv: KVStore, w: Write) =>
  w.value === undefined ? kv.delete(fromHex(w.key)) : kv.set(fromHex(w.key), fromHex(w.value));
const applyModel = (st: State, w: Write) => {
  const m = st.get(w.store)!;
  if (w.value === undefined) m.delete(w.key);
  else m.set(w.key, w.value);
};
const sorted = (m: Map<string, string>) =>
  [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`);
const dump = (kv: KVStore) => [...kv.iterator(undefined, undefined)].map(([k, v]) => `${toHex(k)}=${toHex(v)}`);
const modelHash = (st: State) =>
  appHash(
    new Map(
      [...st].map(([n, m]) => [
        n,
        contentHash(
          sorted(m).map((e) => {
            const [k, v] = e.split("=") as [string, string];
            return [fromHex(k), fromHex(v)] as const;
          }),
        ),
      ]),
    ),
  );

/**
 * The in-memory backend behind the bare StoreBackend interface: the multistore then takes its generic paths (key
 * bytes, entry pairs), not the in-memory backend's latin1 fast paths (reads, content hashes). Both must agree with
 * the model.
 */
class PlainBackend implements StoreBackend {
  readonly #inner: MemBackend;
  constructor(inner = new MemBackend()) {
    this.#inner = inner;
  }
  get(key: Uint8Array) {
    return this.#inner.get(key);
  }
  iterator(start: Uint8Array | undefined, end: Uint8Array | undefined) {
    return this.#inner.iterator(start, end);
  }
  reverseIterator(start: Uint8Array | undefined, end: Uint8Array | undefined) {
    return this.#inner.reverseIterator(start, end);
  }
  write(batch: readonly BackendWrite[]) {
    this.#inner.write(batch);
  }
  fork() {
    return new PlainBackend(this.#inner.fork());
  }
}

describe.each([
  ["the in-memory backend (fast paths)", () => new MemBackend()],
  ["a plain backend (generic paths)", () => new PlainBackend()],
])("VersionedMultiStore against a model, over %s", (_name, backend) => {
  it("every retained version reads as committed and the window follows the pruning rule", () => {
    fc.assert(
      fc.property(pruning, fc.array(op, { minLength: 20, maxLength: 160 }), (opts, ops) => {
        const ms = new VersionedMultiStore({ storeNames: STORES, pruning: opts, backend: backend() });
        const versions: State[] = [];
        let committed: State = new Map(STORES.map((n) => [n, new Map()]));
        let working = copy(committed);
        for (const o of ops) {
          if (o.kind === "write") {
            applyWrite(ms.getKVStore(o.w.store), o.w);
            applyModel(working, o.w);
          } else if (o.kind === "branch") {
            const br = ms.branch();
            for (const w of o.ws) applyWrite(br.getKVStore(w.store), w);
            if (o.keep) {
              br.write();
              for (const w of o.ws) applyModel(working, w);
            }
          } else if (o.kind === "discard") {
            ms.discardWorking();
            working = copy(committed);
          } else {
            const id = ms.commit();
            committed = copy(working);
            versions[id.version] = committed;
            expect(id.version).toBe(versions.length - 1);
            expect(id.appHash).toEqual(modelHash(committed));
          }
        }
        const latest = ms.latestVersion();
        if (latest === 0) return;
        const earliest = earliestRetained(latest, opts);
        expect(ms.earliestVersion()).toBe(earliest);
        for (let v = 0; v <= latest + 1; v++) {
          const r = ms.readAt(v);
          expect(r.ok, `version ${v} of [${earliest}, ${latest}]`).toBe(v >= earliest && v <= latest);
          if (!r.ok) continue;
          for (const n of STORES) {
            const kv = r.value.getKVStore(n);
            const expected = sorted(versions[v]!.get(n)!);
            expect(dump(kv)).toEqual(expected);
            expect([...kv.reverseIterator(undefined, undefined)].map(([k, x]) => `${toHex(k)}=${toHex(x)}`)).toEqual(
              [...expected].reverse(),
            );
            for (const [k, x] of versions[v]!.get(n)!) expect(toHex(kv.get(fromHex(k))!)).toBe(x);
          }
          const h = ms.appHashAt(v);
          expect(h.ok && toHex(h.value)).toBe(toHex(modelHash(versions[v]!)));
        }
      }),
      { numRuns: 150 },
    );
  });
});
