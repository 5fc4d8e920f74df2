import { create } from "@bufbuild/protobuf";
import type { BinaryDef } from "../app/binary.js";
import type { BankView } from "../app/host.js";
import type { ChainGenesis, NodeState } from "../app/node-process.js";
import { SimAppHost, type SimNodeImage } from "../app/sim-host.js";
import type { NodeConfig } from "../app/types.js";
import { coinsToProto } from "../bank/coins.js";
import type { CheckRunner, Step as EngineStep } from "../chain/actions.js";
import type { ConsensusHook } from "../chain/consensus.js";
import { ChainEngine, type EngineOptions, type EngineSnapshot, type StopCondition } from "../chain/engine.js";
import { type LaunchHook, type OperatorLaunchHook, RUN_BLOCKS_MAX } from "../chain/records.js";
import { addressOfName, govAuthority } from "../core/address.js";
import { present } from "../core/assert.js";
import { err, ok, type Result } from "../core/errors.js";
import { composeFaults } from "../faults/compose.js";
import { type Params, ParamsSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { Dec } from "../gov/dec.js";
import { protoDuration } from "../gov/duration.js";
import { parseParams } from "../gov/params.js";
import type { PruningOptions } from "../store/pruning.js";
import type { ScenarioError } from "./errors.js";
import { type Failure, failureText } from "./failure.js";
import { genesisProposalRecords, importedDeposits, importedGenesis } from "./from-genesis.js";
import type { Action, Expectations, GenesisGovParams, Scenario, Step, ValidatorModel } from "./model.js";
import { queryFailure } from "./query-step.js";

export type Simulation = ChainEngine<NodeState, SimNodeImage>;

/**
 * The committed bank state (every denom) of the given addresses, and the total supply, read from a node that holds
 * the chain's committed state (at the chain's height, with its app hash); undefined when no node holds it.
 */
export function committedBank(sim: Simulation, addresses: readonly string[]): BankView | undefined {
  const state = committedNodeState(sim);
  return state === undefined ? undefined : sim.host.readBank(state, addresses);
}

/** The state of a node that holds the chain's committed state (at the committed height, with its app hash), if any. */
export function committedNodeState(sim: Simulation): NodeState | undefined {
  const view = sim.committed();
  if (view === undefined) return undefined;
  for (const name of sim.nodeNames()) {
    const state = sim.nodeState(name);
    if (state === undefined || sim.nodeStatus(name)?.height !== sim.height) continue;
    if (sim.host.lastAppHash(state) === view.appHash) return state;
  }
  return undefined;
}

/** Genesis problems that only gov's own validation finds (relations between params); empty when valid. */
export function genesisErrors(s: Scenario): ScenarioError[] {
  const p = govParamsOf(s.chain.gov, s.chain.bech32Prefix);
  if (p.ok) return [];
  const i = p.error.indexOf(": ");
  return [{ file: s.file, path: p.error.slice(0, i), message: p.error.slice(i + 2) }];
}

/** Called when an inline `expect` step runs; returns its failures. */
export type InlineCheck = (stepIndex: number, expect: Expectations, engine: Simulation) => readonly string[];

function decString(field: string, v: string): Result<string, string> {
  const d = Dec.parse(v);
  return d.ok ? ok(d.value.toString()) : err(`chain.gov.${field}: ${d.error}`);
}

/** The gov Params message of a scenario's `chain.gov`, validated as gov's genesis does (addresses with `prefix`). */
export function govParamsOf(g: GenesisGovParams, prefix: string): Result<Params, string> {
  const decs: Record<string, string> = {};
  for (const [k, v] of Object.entries({
    quorum: g.quorum,
    threshold: g.threshold,
    expeditedThreshold: g.expeditedThreshold,
    vetoThreshold: g.vetoThreshold,
    minInitialDepositRatio: g.minInitialDepositRatio,
    minDepositRatio: g.minDepositRatio,
    proposalCancelRatio: g.proposalCancelRatio,
  })) {
    const d = decString(k, v);
    if (!d.ok) return d;
    decs[k] = d.value;
  }
  const params = create(ParamsSchema, {
    minDeposit: coinsToProto(g.minDeposit),
    expeditedMinDeposit: coinsToProto(g.expeditedMinDeposit),
    maxDepositPeriod: protoDuration(g.maxDepositPeriodMs),
    votingPeriod: protoDuration(g.votingPeriodMs),
    expeditedVotingPeriod: protoDuration(g.expeditedVotingPeriodMs),
    ...decs,
    proposalCancelDest: g.proposalCancelDest,
    burnVoteQuorum: g.burnVoteQuorum,
    burnProposalDepositPrevote: g.burnProposalDepositPrevote,
    burnVoteVeto: g.burnVoteVeto,
  });
  const v = parseParams(params, prefix);
  if (!v.ok) return err(`chain.gov: ${v.error.message}`);
  return ok(params);
}

/** What a `query` step needs besides the engine: the staking view's validators and where its failure goes. */
interface QueryContext {
  readonly validators: readonly ValidatorModel[];
  readonly failed?: ((failure: Failure) => void) | undefined;
}

/** A step as the engine runs it: a file's check (`query`, `expect`) becomes a reference to its step index. */
const engineStep = ({ optional: _optional, ...st }: Step): EngineStep => {
  const a = st.action;
  return { ...st, action: a.kind === "query" || a.kind === "expect" ? { kind: "check", id: st.index } : a };
};

/** The check steps (`query`, `expect`) of each simulation by step index: what its `{kind: "check", id}` refers to. */
const checkSteps = new WeakMap<Simulation, Map<number, Action>>();

/** Schedules one more scenario step on a running simulation (the property harness records its steps this way). */
export function scheduleStep(sim: Simulation, st: Step): void {
  if (st.action.kind === "query" || st.action.kind === "expect") checkSteps.get(sim)?.set(st.index, st.action);
  sim.schedule(engineStep(st));
}

/** Resolves the engine's `{kind: "check", id}` steps: the `query` or `expect` step of that index. */
function checkRunner(
  byIndex: ReadonlyMap<number, Action>,
  check: InlineCheck | undefined,
  engine: () => Simulation,
  query: QueryContext,
): CheckRunner {
  return (id) => {
    const a = byIndex.get(id);
    if (a?.kind === "expect") {
      const failures = check?.(id, a.expect, engine()) ?? [];
      return failures.length === 0 ? { ok: true } : { ok: false, error: failures.join("; ") };
    }
    if (a?.kind === "query") {
      const failure = queryFailure(engine(), a, `steps[${id}].query`, query.validators);
      if (failure === undefined) return { ok: true };
      query.failed?.(failure);
      return { ok: false, error: failureText(failure) };
    }
    return { ok: false, error: `step ${id} is no check` };
  };
}

export interface BuildOptions {
  readonly seed?: number;
  readonly engine?: EngineOptions;
  readonly inlineCheck?: InlineCheck;
  /** Called with the failure of each `query` step whose response differs from its `expect`. */
  readonly queryFailed?: (failure: Failure) => void;
  /** Pruning of every node's state; default the scenario's `chain.pruning`. */
  readonly pruning?: PruningOptions;
}

/**
 * App hosts hold no per-run state (node states are created per engine), so a scenario's host is built once and
 * shared by every simulation of it: the property harness builds thousands from a few cached worlds. A host reads
 * only the scenario's chain, binaries, genesis binary and options, so scenarios that share those objects (the
 * harness's runs of one world, which differ in their nodes' sidecar delays) share the host.
 */
const hostCache = new WeakMap<
  Scenario["binaries"],
  { readonly of: HostInputs; readonly host: { readonly ok: true; readonly value: ComposedHost } }
>();

/** What a scenario's app host is built from. */
type HostInputs = Pick<Scenario, "chain" | "binaries" | "genesisBinary" | "options">;

const sameHostInputs = (a: HostInputs, b: HostInputs): boolean =>
  a.chain === b.chain && a.binaries === b.binaries && a.genesisBinary === b.genesisBinary && a.options === b.options;

function cachedHost(s: Scenario): { readonly ok: true; readonly value: ComposedHost } | undefined {
  const c = hostCache.get(s.binaries);
  return c !== undefined && sameHostInputs(c.of, s) ? c.host : undefined;
}

/** A scenario's app host, and the engine hooks of its planted faults (if any) for its engines. */
interface ComposedHost {
  readonly host: SimAppHost;
  readonly consensus: ConsensusHook | undefined;
  readonly launch: LaunchHook | undefined;
  readonly operatorLaunch: OperatorLaunchHook | undefined;
}

/**
 * The app host of a scenario: the one place where the planted faults it enables (`options.faults`, none in a real
 * rehearsal) are composed into the hooks the app and the engine run (src/faults/compose.ts).
 */
function newHost(s: Scenario, o: BuildOptions): Result<ComposedHost, string> {
  const prefix = s.chain.bech32Prefix;
  const params = govParamsOf(s.chain.gov, prefix);
  if (!params.ok) return params;
  const balances = [...s.chain.accounts].map(([name, coins]) => ({ address: addressOfName(name, prefix), coins }));
  const start = s.start;
  const deposits = start === undefined ? [] : importedDeposits(start);
  const genesis: ChainGenesis = {
    chainId: s.chain.chainId,
    bech32Prefix: prefix,
    validators: s.chain.validators.map((v) => ({ name: v.name, power: v.power })),
    balances: deposits.length === 0 ? balances : [...balances, { address: govAuthority(prefix), coins: deposits }],
    govParams: params.value,
    govConfig: { expeditedFallbackVotes: s.options.expeditedFallbackVotes, maxMetadataLen: 255 },
    ...(start === undefined ? {} : { initialHeight: start.height + 1, imported: importedGenesis(start) }),
  };
  const binaries = new Map<string, BinaryDef>([...s.binaries].map(([n, b]) => [n, b]));
  const { app, consensus, launch, operatorLaunch } = composeFaults(s.options.faults);
  return ok({
    host: new SimAppHost(genesis, binaries, s.genesisBinary, o.pruning ?? s.chain.pruning, app),
    consensus,
    launch,
    operatorLaunch,
  });
}

/**
 * Builds the chain engine for a validated scenario: genesis (balances by named address, gov params), binaries,
 * nodes and steps. Fails only for genesis params gov rejects (`chain.gov: ...`).
 */
export function buildSimulation(s: Scenario, o: BuildOptions = {}): Result<Simulation, string> {
  const nodes: NodeConfig[] = [...s.nodes.values()].map((n) => ({
    name: n.name,
    power: n.power,
    binary: n.binary,
    skipUpgradeHeights: [...n.skipUpgradeHeights],
    sidecar: n.sidecar,
    upgradeInfoWritable: n.upgradeInfoWritable,
    ...(n.operator === undefined ? {} : { operator: n.operator }),
    ...(n.dataDiskBytes === undefined ? {} : { dataDiskBytes: n.dataDiskBytes }),
  }));
  const checks = new Map(s.steps.map((st) => [st.index, st.action]));
  return simulationOf(s, o, checks, (host, opts) =>
    ChainEngine.create(
      {
        chainId: s.chain.chainId,
        bech32Prefix: s.chain.bech32Prefix,
        genesisTimeMs: s.chain.genesisTime,
        seed: o.seed ?? s.seed,
        blockTime: s.chain.blockTime,
        ...(s.start === undefined
          ? {}
          : {
              initialHeight: s.start.height + 1,
              genesisProposals: genesisProposalRecords(s.start),
              ...(s.start.plan === null
                ? {}
                : { genesisPlan: { ...s.start.plan, height: Number(s.start.plan.height) } }),
            }),
      },
      host,
      nodes,
      s.steps.map(engineStep),
      opts,
    ),
  );
}

/** A simulation as plain data (`structuredClone` copies it): the engine's snapshot and the check steps it refers to. */
export interface SimulationSnapshot {
  readonly engine: EngineSnapshot<SimNodeImage>;
  readonly checks: ReadonlyMap<number, Action>;
}

/** The simulation's state as plain data, for `forkSimulation` (between blocks, as every engine call leaves it). */
export function snapshotSimulation(sim: Simulation): SimulationSnapshot {
  return { engine: sim.snapshot(), checks: new Map(checkSteps.get(sim)) };
}

/**
 * A simulation of scenario `s` that continues from `snap` (a snapshot of a simulation of `s` built with the same
 * options) exactly as that simulation would: a fork. Its checks run against the fork. `o.seed` is ignored (the seed
 * is the snapshot's).
 */
export function forkSimulation(
  s: Scenario,
  snap: SimulationSnapshot,
  o: BuildOptions = {},
): Result<Simulation, string> {
  return simulationOf(s, o, new Map(snap.checks), (host, opts) => ChainEngine.fromSnapshot(host, snap.engine, opts));
}

/** A simulation of `s` made by `make` over the scenario's app host, with its check steps resolved against it. */
function simulationOf(
  s: Scenario,
  o: BuildOptions,
  checks: Map<number, Action>,
  make: (host: SimAppHost, opts: EngineOptions) => Simulation,
): Result<Simulation, string> {
  const cached = o.pruning === undefined ? cachedHost(s) : undefined;
  const host = cached ?? newHost(s, o);
  if (!host.ok) return host;
  if (o.pruning === undefined && cached === undefined)
    hostCache.set(s.binaries, {
      of: { chain: s.chain, binaries: s.binaries, genesisBinary: s.genesisBinary, options: s.options },
      host,
    });
  let engine: Simulation | undefined;
  const check = checkRunner(checks, o.inlineCheck, () => present(engine, "a check runs only once the engine exists"), {
    validators: s.chain.validators,
    failed: o.queryFailed,
  });
  engine = make(host.value.host, {
    ...o.engine,
    check,
    ...(host.value.consensus === undefined ? {} : { consensus: host.value.consensus }),
    ...(host.value.launch === undefined ? {} : { launch: host.value.launch }),
    ...(host.value.operatorLaunch === undefined ? {} : { operatorLaunch: host.value.operatorLaunch }),
  });
  checkSteps.set(engine, checks);
  return ok(engine);
}

/**
 * The stop condition of a scenario's `run` block; without one, the default settle rule. Every run commits at most
 * RUN_BLOCKS_MAX blocks, whatever its block says.
 */
export function stopConditionOf(s: Scenario): StopCondition {
  const r = s.run;
  if (r.untilHeight === undefined && r.untilTime === undefined && r.maxBlocks === undefined) return { settle: true };
  return {
    ...(r.untilHeight === undefined ? {} : { untilHeight: r.untilHeight }),
    ...(r.untilTime === undefined ? {} : { untilTimeMs: r.untilTime }),
    maxBlocks: Math.min(r.maxBlocks ?? RUN_BLOCKS_MAX, RUN_BLOCKS_MAX),
  };
}
