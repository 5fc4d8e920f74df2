import { createOracle, type Oracle } from "../../models/oracle.js";
import { BoundedCache } from "../core/bounded-cache.js";
import { durationMs } from "../core/brand.js";
import { scenarioFromData } from "../scenario/load.js";
import type { NodeModel, Scenario } from "../scenario/model.js";
import type { ScenarioDocument } from "../scenario/schema.js";
import { buildSimulation, type SimulationSnapshot, snapshotSimulation } from "../scenario/simulate.js";
import { VALIDATORS, type ValidatorName, type WorldOptions, worldDocument, worldOracleInput } from "./world.js";

/**
 * What every run of one property world shares, built once per world (variant and planted faults): the parsed
 * scenario, the initial oracle and the ready chain. A run's seed and sidecar delays vary from run to run and
 * determine nothing at genesis, nor anything up to block 1 of the property world, so they are set per run:
 *
 * - `parsedWorld(o)` is the world's scenario with the run's seed and sidecars: equal to parsing the run's own
 *   document (session.test.ts). Every run of a world keeps the world's chain, binaries and options objects, so it
 *   shares the world's app host (scenario/simulate.ts), which builds the genesis once.
 * - `readyChain(o)` is the world built and run to block 1 (what every session starts from) as a snapshot, with the
 *   run's seed and sidecars set in it: a fork of it is observably the chain built fresh with them (session.test.ts:
 *   trace hashes, oracle, records and nodes, under every planted fault and over many seeds and sidecar sets). That
 *   holds while the snapshot is `portable`: the block times do not depend on the seed (a fixed block time: no draw
 *   has been made), the trace is not hashed yet (the seed is only in its genesis event, patched), and no sidecar has
 *   had a reason to act (no upgrade-needed halt, no sidecar event queued: the engine reads a sidecar's
 *   configuration only then). A world whose ready chain is not portable gets a ready chain per run document
 *   instead (seed and sidecars included), built with them.
 *
 * A fault that makes genesis differ between builds (`nondeterministic-genesis`) still shows: the determinism
 * property replays on a world it parses itself, with its own host.
 */
interface WorldEntry {
  /** The world with no sidecar, seed 0. */
  readonly base: Scenario;
  /** Each validator's sidecar as the world document gives it (delay 0), for runs that have one. */
  readonly sidecars: ReadonlyMap<string, NodeModel>;
  readonly oracle: Oracle;
  /** Built on first use. */
  ready?: { readonly snap: SimulationSnapshot; readonly portable: boolean };
}

/** Bounds on the memo tables (the property worlds are few: variants × fault sets). */
const CACHE_MAX = 256;
const worlds = new BoundedCache<string, WorldEntry>(CACHE_MAX);
/** Ready chains per seed and sidecar set, for worlds whose ready chain is not portable. */
const ownReadyChains = new BoundedCache<string, SimulationSnapshot>(CACHE_MAX);
/** Parsed documents by their JSON (the coverage world, and the world entries' own parses). */
const parsedDocuments = new BoundedCache<string, Scenario>(CACHE_MAX);

/** A scenario document parsed (memoised by its JSON). Throws on an invalid document: the worlds are the harness's own. */
export function parsedDocument(doc: ScenarioDocument): Scenario {
  const key = JSON.stringify(doc);
  const hit = parsedDocuments.get(key);
  if (hit !== undefined) return hit;
  const r = scenarioFromData("property-world.yaml", doc);
  if (!r.ok) throw new Error(`world is invalid: ${r.error.map((e) => `${e.path}: ${e.message}`).join("; ")}`);
  return parsedDocuments.set(key, r.value);
}

const worldKey = (o: WorldOptions): string => JSON.stringify([o.variant ?? "standard", o.faults ?? [], o.gov ?? null]);

const gov = (o: WorldOptions) => (o.gov === undefined ? {} : { gov: o.gov });

function worldEntry(o: WorldOptions): WorldEntry {
  const key = worldKey(o);
  const hit = worlds.get(key);
  if (hit !== undefined) return hit;
  const world = {
    ...(o.variant === undefined ? {} : { variant: o.variant }),
    ...(o.faults ? { faults: o.faults } : {}),
    ...gov(o),
  };
  const base = parsedDocument(worldDocument({ ...world, seed: 0 }));
  const oracle = createOracle(worldOracleInput(worldDocument({ ...world, seed: 0 })));
  return worlds.set(key, { base, sidecars: sidecarNodes(world), oracle });
}

/**
 * Every validator's node with a sidecar (delay 0), as the world document with a sidecar on each parses: a node model
 * is made of the validators, the genesis binary and the `nodes` section alone, which the worlds of every variant,
 * fault set and gov params share, so one parse serves them (memoised by those parts of the document).
 */
function sidecarNodes(world: Omit<WorldOptions, "seed">): ReadonlyMap<string, NodeModel> {
  const doc = worldDocument({ ...world, seed: 0, sidecars: Object.fromEntries(VALIDATORS.map((v) => [v, 0])) });
  const key = JSON.stringify([doc.chain?.validators, doc.genesisBinary, doc.nodes]);
  const hit = sidecarTemplates.get(key);
  return hit ?? sidecarTemplates.set(key, parsedDocument(doc).nodes);
}

const sidecarTemplates = new BoundedCache<string, ReadonlyMap<string, NodeModel>>(CACHE_MAX);

/** The property world of `o`, parsed: the world's scenario with the run's seed and sidecar delays. */
export function parsedWorld(o: WorldOptions): Scenario {
  const w = worldEntry(o);
  const delays = o.sidecars ?? {};
  const nodes = new Map(
    [...w.base.nodes].map(([name, n]) => {
      const delayMs = delays[name as ValidatorName];
      const withSidecar = w.sidecars.get(name);
      return [
        name,
        delayMs === undefined || withSidecar === undefined
          ? n
          : { ...withSidecar, sidecar: { ...withSidecar.sidecar, delayMs: durationMs(delayMs) } },
      ];
    }),
  );
  return { ...w.base, seed: o.seed, nodes };
}

/** The world's initial oracle (oracle snapshots are immutable: one serves every session of the world). */
export function worldOracle(o: WorldOptions): Oracle {
  return worldEntry(o).oracle;
}

/** A scenario built and run to block 1, as a snapshot (keepTrace: the sessions read the trace). */
function buildReady(s: Scenario): SimulationSnapshot {
  const built = buildSimulation(s, { engine: { keepTrace: true } });
  if (!built.ok) throw new Error(`world is invalid: ${built.error}`);
  const sim = built.value;
  sim.run({ untilHeight: 1 });
  sim.run({ untilTimeMs: sim.nowMs });
  return snapshotSimulation(sim);
}

/** Whether a ready chain may be given another seed and other sidecars (see the module's contract). */
function portable(snap: SimulationSnapshot): boolean {
  const e = snap.engine;
  const t = e.trace;
  return (
    e.blockTimes.model.kind === "fixed" &&
    t.keep &&
    t.hashed === 0 &&
    t.hash.kind === "text" &&
    t.hash.text === "" &&
    t.events[0]?.kind === "genesis" &&
    !e.records.halts.some((h) => h.kind === "upgrade-needed") &&
    !e.records.schedule.queue.some((q) => q.kind !== "step")
  );
}

/** The world's ready chain with the seed and the node configurations (sidecars) of the run's scenario `s`. */
function withRun(snap: SimulationSnapshot, s: Scenario): SimulationSnapshot {
  const e = snap.engine;
  const [genesis, ...rest] = e.trace.events;
  if (genesis?.kind !== "genesis") throw new Error("a portable ready chain's trace starts with its genesis");
  return {
    ...snap,
    engine: {
      ...e,
      cfg: { ...e.cfg, seed: s.seed },
      blockTimes: { ...e.blockTimes, seed: s.seed },
      trace: { ...e.trace, events: [{ ...genesis, seed: s.seed }, ...rest] },
      nodes: e.nodes.map((n) => {
        const sidecar = s.nodes.get(n.cfg.name)?.sidecar;
        return sidecar === undefined || sidecar === n.cfg.sidecar ? n : { ...n, cfg: { ...n.cfg, sidecar } };
      }),
    },
  };
}

/**
 * The ready chain of the run `o` (whose scenario is `s = parsedWorld(o)`): the world's, with the run's seed and
 * sidecars, when it is portable; otherwise one built for the run's own world document.
 */
export function readyChain(o: WorldOptions, s: Scenario): SimulationSnapshot {
  const w = worldEntry(o);
  if (w.ready === undefined) {
    const snap = buildReady(parsedWorld({ ...o, seed: 0, sidecars: {} }));
    w.ready = { snap, portable: portable(snap) };
  }
  if (w.ready.portable) return withRun(w.ready.snap, s);
  const key = JSON.stringify(worldDocument(o));
  return ownReadyChains.getOrCompute(key, () => buildReady(s));
}

/** The ready-chain memo, for the equivalence tests: whether the world of `o` shares one ready chain across runs. */
export function readyChainIsShared(o: WorldOptions): boolean | undefined {
  return worldEntry(o).ready?.portable;
}
