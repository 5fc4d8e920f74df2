import { sha256 } from "@noble/hashes/sha2.js";
import fc from "fast-check";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { assert } from "../core/assert.js";
import { BoundedCache } from "../core/bounded-cache.js";
import { utf8 } from "../core/bytes.js";
import { type CommandTarget, emptyModel, type HarnessModel, sessionTarget } from "./commands.js";
import { checkProperties, type Property } from "./property.js";
import { Session, type SessionImage } from "./session.js";
import type { WorldOptions } from "./world.js";

/**
 * Runs that share their command prefixes (issue #28, "Shared prefixes"): a property's runs generated as a tree of
 * command prefixes, each prefix executed once and forked for its extensions.
 *
 * 1. Families. Family `k` of a property is a world and a prefix of commands, drawn by the family arbitrary (the
 *    world of family `k`, then `fc.commands` of at most `prefixCommands`) from a random seeded by (campaign seed,
 *    property, k) alone, so every unit of the property, on any worker, draws the same families. The caller may pin
 *    a part of family `k`'s world to `k` (stratification: run-property.ts gives family `k` of a property checked in
 *    several world variants the variant `k mod n`, so that a few families cannot all miss one).
 * 2. Sampling. Each run is, in `extensionPercent` runs of 100, an extension of family `k` (k uniform in
 *    [0, families)): the family's world and prefix, then freshly generated extension commands; otherwise an
 *    independent run, drawn by the property's own run arbitrary as without shared prefixes.
 * 3. Execution. The first extension of a family in a thread runs its prefix on a fresh session (the `always` checks
 *    after every command: a prefix that fails is the failure of every run extending it) and keeps the session's
 *    image (`Session.image`: engine snapshot, oracle, records, steps and the property's state). Every extension
 *    restores a fork of it and runs only its extension commands, then the `end` checks. The model of fast-check's
 *    Model/Real split is stepped through the prefix again (a replay target executes nothing), so the run's prefix
 *    commands are marked as run for the shrinker exactly as a fresh run marks them.
 * 4. Shrinking. An extension first shrinks its extension commands (staying in the family: still forked), then
 *    detaches: the world, the prefix and the extension shrunk as one tuple (fast-check's own shrinkers with their
 *    contexts), run whole on a fresh session. So a counterexample shrinks as an independent run does, to a minimal
 *    sequence written as a scenario that `chainsim run` replays.
 * A fork continues exactly as the session it was taken from (shared-prefix.test.ts: the same trace hash, verdict and
 * counterexample as the same commands run whole); the sampling is what changes which sequences a seed explores.
 */

type Cmds = Iterable<fc.Command<HarnessModel, CommandTarget>>;

/** The parts of a run that extends a prefix: its world, the prefix, the extension. */
export type PrefixedParts<W> = readonly [W, Cmds, Cmds];

/** One generated run: independent (the property's own input), or a prefix and an extension (of family `family`). */
export type SharedRun<I, W> =
  | { readonly kind: "independent"; readonly input: I }
  | { readonly kind: "extension"; readonly family: number; readonly seed: number; readonly parts: PrefixedParts<W> }
  | { readonly kind: "detached"; readonly seed: number; readonly parts: PrefixedParts<W> };

/** How runs share prefixes (PropertyRunOptions.sharedPrefixes). */
export interface SharedPrefixOptions {
  /** Families per property. */
  readonly families: number;
  /** Most commands in a family's prefix. */
  readonly prefixCommands: number;
  /** Of every 100 runs, how many extend a family (the rest are independent). */
  readonly extensionPercent: number;
}

/** The default of `check --prefix-share` (chosen by measurement: docs/performance.md "Shared prefixes"). */
export const SHARED_PREFIX_DEFAULTS: SharedPrefixOptions = { families: 4, prefixCommands: 16, extensionPercent: 75 };

/** The seed of family `k` of `property` in campaign `seed` (sha256, first 4 bytes, 31 bits; as unit seeds). */
export function familySeed(seed: number, property: string, k: number): number {
  const h = sha256(utf8(`chainsim-check/${seed}/${property}/family/${k}`));
  return ((h[0]! << 24) | (h[1]! << 16) | (h[2]! << 8) | h[3]!) >>> 1;
}

/** A run value with fast-check's clone method: a second read of a value gets commands that have not run. */
function runValue<I, W>(run: SharedRun<I, W>): SharedRun<I, W> {
  return Object.defineProperty(run, fc.cloneMethod, {
    value: () =>
      runValue(
        run.kind === "independent"
          ? { ...run, input: fc.cloneIfNeeded(run.input) }
          : { ...run, parts: run.parts.map((p) => fc.cloneIfNeeded(p)) as unknown as PrefixedParts<W> },
      ),
  });
}

/**
 * The generator of a property's runs with shared prefixes (see the module's steps 1, 2 and 4). `base` is the
 * property's own run arbitrary (independent runs); `world`, `prefix` and `extension` draw the parts of the others.
 */
export class SharedPrefixArbitrary<I, W> extends fc.Arbitrary<SharedRun<I, W>> {
  readonly #world: fc.Arbitrary<W>;
  readonly #prefix: fc.Arbitrary<Cmds>;
  readonly #whole: fc.Arbitrary<[W, Cmds, Cmds]>;
  /** Family k's arbitrary (its world and prefix), built once per k (k < families). */
  readonly #families = new Map<number, fc.Arbitrary<[W, Cmds]>>();

  /**
   * `world` draws a run's world and shrinks it; `familyWorld(k)`, when given, draws family `k`'s world instead. Its
   * values and contexts must be `world`'s own (a detached run shrinks them with `world`).
   */
  constructor(
    readonly base: fc.Arbitrary<I>,
    world: fc.Arbitrary<W>,
    prefix: fc.Arbitrary<Cmds>,
    readonly extension: fc.Arbitrary<Cmds>,
    readonly o: SharedPrefixOptions & {
      readonly seedOf: (k: number) => number;
      readonly familyWorld?: (k: number) => fc.Arbitrary<W>;
    },
  ) {
    super();
    assert(o.families >= 1 && o.extensionPercent >= 0 && o.extensionPercent <= 100, "shared prefixes: bad options");
    this.#world = world;
    this.#prefix = prefix;
    this.#whole = fc.tuple(world, prefix, extension);
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<SharedRun<I, W>> {
    if (mrng.nextInt(0, 99) >= this.o.extensionPercent) {
      const v = this.base.generate(mrng, biasFactor);
      return new fc.Value(runValue<I, W>({ kind: "independent", input: v.value_ }), v.context);
    }
    const k = mrng.nextInt(0, this.o.families - 1);
    return this.#extensionOf(k, this.extension.generate(mrng, biasFactor));
  }

  canShrinkWithoutContext(_value: unknown): _value is SharedRun<I, W> {
    return false;
  }

  shrink(value: SharedRun<I, W>, context: unknown): fc.Stream<fc.Value<SharedRun<I, W>>> {
    if (value.kind === "independent")
      return this.base
        .shrink(value.input, context)
        .map((v) => new fc.Value(runValue<I, W>({ kind: "independent", input: v.value_ }), v.context));
    const seed = value.seed;
    const whole = this.#whole
      .shrink([...value.parts], context)
      .map((v) => new fc.Value(runValue<I, W>({ kind: "detached", seed, parts: v.value_ }), v.context));
    if (value.kind === "detached") return whole;
    const family = value.family;
    const extensionContext = (context as readonly unknown[])[2];
    return this.extension
      .shrink(value.parts[2], extensionContext)
      .map((e) => this.#extensionOf(family, e))
      .join(whole);
  }

  /** Family `k`'s world and prefix, drawn afresh (new commands, none run yet) from the family's own random. */
  family(k: number): fc.Value<[W, Cmds]> {
    let family = this.#families.get(k);
    if (family === undefined) {
      assert(k >= 0 && k < this.o.families, "shared prefixes: no such family");
      family = fc.tuple(this.o.familyWorld?.(k) ?? this.#world, this.#prefix);
      this.#families.set(k, family);
    }
    return family.generate(new fc.Random(xoroshiro128plus(this.o.seedOf(k))), undefined);
  }

  #extensionOf(k: number, e: fc.Value<Cmds>): fc.Value<SharedRun<I, W>> {
    const f = this.family(k);
    const [world, prefix] = f.value_;
    const [worldContext, prefixContext] = f.context as readonly unknown[];
    return new fc.Value(
      runValue<I, W>({ kind: "extension", family: k, seed: this.o.seedOf(k), parts: [world, prefix, e.value_] }),
      [worldContext, prefixContext, e.context],
    );
  }
}

/**
 * Runs `commands` on `session` from `model`: the `always` properties after each command, the `end` properties in
 * order after the last. Throws the first failure once every command has run in the model (sessionTarget). `observe`
 * sees the session whatever happened.
 */
export function driveSession(
  session: Session,
  model: HarnessModel,
  commands: Cmds,
  properties: readonly Property[],
  observe?: (session: Session, model: HarnessModel, passed: boolean) => void,
): { session: Session; model: HarnessModel } {
  let passed = false;
  try {
    const real = sessionTarget(session, properties);
    fc.modelRun(() => ({ model, real }), commands);
    if (real.failure !== undefined) throw real.failure.error;
    checkProperties(session, properties, "end");
    passed = true;
  } finally {
    observe?.(session, model, passed);
  }
  return { session, model };
}

/** A prefix run once: the session's image after it, the commands it executed, and its failure if one failed. */
interface PrefixEntry {
  readonly image: SessionImage;
  readonly executed: number;
  readonly failure: { readonly error: unknown } | undefined;
}

/**
 * Prefixes run in this thread, per property (its state is keyed by the property object). Each entry holds a session
 * image (an engine snapshot with its trace): the bound keeps a few campaigns' families per property.
 */
const PREFIXES_MAX = 32;
const prefixes = new WeakMap<Property, BoundedCache<string, PrefixEntry>>();

function runPrefix(world: WorldOptions, prefix: Cmds, property: Property): PrefixEntry {
  const session = new Session(world);
  const model = emptyModel();
  const real = sessionTarget(session, [property]);
  fc.modelRun(() => ({ model, real }), prefix);
  return { image: session.image(), executed: model.log.length, failure: real.failure };
}

/**
 * The target of a prefix already run: executes nothing, and fails where the prefix failed (after its `executed`th
 * command), so fast-check steps the model and marks the commands run as the prefix's own run did.
 */
function replayTarget(entry: PrefixEntry): CommandTarget {
  let executed = 0;
  return {
    get failure() {
      return executed >= entry.executed ? entry.failure : undefined;
    },
    execute() {
      executed++;
    },
  };
}

/**
 * Runs an extension of family `family` (`key` names its world and prefix in the thread's cache: the same key, the
 * same world and prefix): the prefix's session, from the cache or run now, forked; then the extension.
 */
export function runExtension(
  key: string,
  world: WorldOptions,
  [, prefix, extension]: PrefixedParts<unknown>,
  property: Property,
  observe?: (session: Session, model: HarnessModel, passed: boolean) => void,
): void {
  let cache = prefixes.get(property);
  if (cache === undefined) prefixes.set(property, (cache = new BoundedCache(PREFIXES_MAX)));
  const entry = cache.getOrCompute(key, () => runPrefix(world, fc.cloneIfNeeded(prefix), property));
  const model = emptyModel();
  const replay = replayTarget(entry);
  fc.modelRun(() => ({ model, real: replay }), prefix);
  const session = new Session({ image: entry.image });
  if (entry.failure === undefined) {
    driveSession(session, model, extension, [property], observe);
    return;
  }
  fc.modelRun(() => ({ model, real: replay }), extension);
  observe?.(session, model, false);
  throw entry.failure.error;
}

/**
 * `values[i]`, always, as `fc.constantFrom(...values)` gives it (its context is the index), so a value drawn here
 * shrinks with constantFrom's shrinker as one it drew.
 */
export function pinnedConstant<T>(values: readonly T[], i: number): fc.Arbitrary<T> {
  assert(i >= 0 && i < values.length, "pinnedConstant: index out of range");
  const all = fc.constantFrom(...values);
  return new (class extends fc.Arbitrary<T> {
    generate(): fc.Value<T> {
      return new fc.Value(values[i] as T, i);
    }
    canShrinkWithoutContext(value: unknown): value is T {
      return all.canShrinkWithoutContext(value);
    }
    shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
      return all.shrink(value, context);
    }
  })();
}
