/**
 * Validated document → resolved model: applies every default and converts every value to its typed form.
 *
 * Contract: the input has passed the shape validation and the reference checks (`load.ts` guarantees it). A parse
 * failure here is therefore a bug in this package, reported by `InvariantError`, never a user error.
 */
import { base64 } from "@scure/base";
import { addressOfName, DEFAULT_BECH32_PREFIX, govAuthority } from "../core/address.js";
import { type DurationMs, type Height, height, type UnixMs } from "../core/brand.js";
import type { Result } from "../core/errors.js";
import { parseDuration, parseDurationNs } from "../core/go/duration.js";
import { parseRfc3339 } from "../core/go/time.js";
import { PRUNE_DEFAULT, type PruningOptions, pruningOptions } from "../store/pruning.js";
import type { StoreUpgrades } from "../store/types.js";
import { type Coins, normalizedCoins, parseCoins } from "./coins.js";
import { BASE_MODULES, GOV_DEFAULTS, SCENARIO_DEFAULTS } from "./defaults.js";
import type {
  Action,
  BinaryModel,
  BlockTimeModel,
  ChainModel,
  GenesisGovParams,
  NodeModel,
  Scenario,
  StartModel,
  Step,
  Trigger,
  UpgradeHandlerModel,
  UpgradeMessage,
} from "./model.js";
import { resolveExpectations } from "./resolve-expect.js";
import { resolveOperator } from "./resolve-operator.js";
import {
  ANY_NODE,
  DEFAULT_NODE_KEY,
  type ScenarioDocument,
  type StepDocument,
  type UpgradeMessageDocument,
} from "./schema.js";
import { parseTimeSpec, resolveTimeSpec } from "./time.js";

/** A value that validation guaranteed turned out invalid: a bug in the scenario package. */
export class InvariantError extends Error {
  override readonly name = "InvariantError";
}

function must<T>(r: Result<T, string>, what: string): T {
  if (!r.ok) throw new InvariantError(`scenario ${what} passed validation but does not parse: ${r.error}`);
  return r.value;
}

const dur = (s: string): DurationMs => must(parseDuration(s), "duration");
const coins = (s: string): Coins => must(parseCoins(s), "coins");
const int64 = (v: number | string): bigint => BigInt(v);
const entries = <V>(r: Readonly<Record<string, V>> | undefined): [string, V][] =>
  r === undefined ? [] : Object.entries(r);
const mapOf = <V, W>(r: Readonly<Record<string, V>> | undefined, f: (v: V, k: string) => W): ReadonlyMap<string, W> =>
  new Map(entries(r).map(([k, v]) => [k, f(v, k)]));

export function resolveScenario(file: string, doc: ScenarioDocument, start?: StartModel): Scenario {
  const chain = resolveChain(doc);
  const binaries = mapOf(doc.binaries, (b, name) => resolveBinary(name, b));
  const genesisBinary = doc.genesisBinary ?? [...binaries.keys()][0];
  if (genesisBinary === undefined) throw new InvariantError("scenario without binaries passed validation");
  const proposers = new Map<string, string>();
  for (const s of doc.steps ?? []) if (s.submitProposal) proposers.set(s.submitProposal.id, s.submitProposal.proposer);
  const ctx: StepContext = { chain, proposers, firstNode: chain.validators[0]?.name ?? "" };
  const expect = doc.expect === undefined ? undefined : resolveExpectations(doc.expect);
  const run = doc.run ?? {};
  return {
    file,
    ...(start === undefined ? {} : { start }),
    name: doc.name,
    description: doc.description ?? SCENARIO_DEFAULTS.description,
    seed: doc.seed ?? SCENARIO_DEFAULTS.seed,
    chain,
    binaries,
    genesisBinary,
    nodes: resolveNodes(doc, chain, genesisBinary),
    steps: (doc.steps ?? []).map((s, i) => resolveStep(s, i, ctx)),
    run: {
      ...(run.untilHeight === undefined ? {} : { untilHeight: height(run.untilHeight) }),
      ...(run.untilTime === undefined ? {} : { untilTime: timeOf(run.untilTime, chain.genesisTime) }),
      ...(run.maxBlocks === undefined ? {} : { maxBlocks: run.maxBlocks }),
    },
    ...(expect === undefined ? {} : { expect }),
    options: {
      expeditedFallbackVotes: doc.options?.expeditedFallbackVotes ?? SCENARIO_DEFAULTS.expeditedFallbackVotes,
      faults: [...new Set(doc.options?.faults ?? [])],
    },
  };
}

const timeOf = (text: string, genesis: UnixMs): UnixMs => resolveTimeSpec(must(parseTimeSpec(text), "time"), genesis);

function resolveChain(doc: ScenarioDocument): ChainModel {
  const c = doc.chain ?? {};
  const validators = (c.validators ?? SCENARIO_DEFAULTS.validators).map((v) => ({ name: v.name, power: v.power }));
  // Genesis balances are normalized as `add-genesis-account` stores them: `1000stake,1000atom` is `1000atom,1000stake`.
  const accounts = new Map<string, Coins>(
    entries(c.accounts).map(([name, text]) => [name, normalizedCoins(coins(text))]),
  );
  for (const v of validators) {
    if (!accounts.has(v.name)) accounts.set(v.name, coins(SCENARIO_DEFAULTS.validatorBalance));
  }
  return {
    chainId: c.chainId ?? SCENARIO_DEFAULTS.chainId,
    bech32Prefix: c.bech32Prefix ?? DEFAULT_BECH32_PREFIX,
    genesisTime: must(parseRfc3339(c.genesisTime ?? SCENARIO_DEFAULTS.genesisTime), "genesis time"),
    blockTime: resolveBlockTime(
      c.blockTime ?? SCENARIO_DEFAULTS.blockTime,
      must(parseRfc3339(c.genesisTime ?? SCENARIO_DEFAULTS.genesisTime), "genesis time"),
    ),
    gov: resolveGov(c.gov ?? {}),
    validators,
    accounts,
    pruning: resolvePruning(c.pruning),
  };
}

function resolvePruning(p: NonNullable<ScenarioDocument["chain"]>["pruning"]): PruningOptions {
  if (p === undefined) return PRUNE_DEFAULT;
  const r = pruningOptions(p.strategy, p.keepRecent, p.interval);
  if (!r.ok) throw new InvariantError(`scenario pruning passed validation but does not parse: ${r.error.message}`);
  return r.value;
}

export type BlockTimeDocument = NonNullable<NonNullable<ScenarioDocument["chain"]>["blockTime"]>;

export function resolveBlockTime(b: BlockTimeDocument, genesisMs: UnixMs): BlockTimeModel {
  if (typeof b === "string") return { kind: "fixed", intervalMs: dur(b) };
  if (b.drift !== undefined) return resolveDrift(b.drift, genesisMs);
  if (b.mean !== undefined && b.stddev !== undefined) {
    return {
      kind: "normal",
      meanMs: dur(b.mean),
      stddevMs: dur(b.stddev),
      minMs: dur(b.min ?? SCENARIO_DEFAULTS.normalBlockTimeMin),
      ...(b.max === undefined ? {} : { maxMs: dur(b.max) }),
    };
  }
  if (b.min === undefined || b.max === undefined) throw new InvariantError("uniform block time without min/max");
  return { kind: "uniform", minMs: dur(b.min), maxMs: dur(b.max) };
}

type DriftDocument = NonNullable<Exclude<BlockTimeDocument, string>["drift"]>;

/** A drift document's model: durations to the nanosecond (fractional ms), absent keys at their documented default. */
function resolveDrift(d: DriftDocument, genesisMs: UnixMs): BlockTimeModel {
  const ms = (text: string): number => Number(must(parseDurationNs(text), "drift duration")) / 1e6;
  const meanMs = ms(d.mean);
  const peak = d.daily?.peak ?? "00:00";
  return {
    kind: "drift",
    meanMs,
    anchor: {
      height: d.anchor?.height ?? 0,
      timeMs: d.anchor === undefined ? genesisMs : must(parseRfc3339(d.anchor.time), "drift anchor time"),
      rateMs: d.anchor?.rate === undefined ? meanMs : ms(d.anchor.rate),
    },
    segmentBlocks: d.segmentBlocks ?? Math.max(1, Math.round(DRIFT_SEGMENT_MS / meanMs)),
    persistence: d.persistence ?? DRIFT_PERSISTENCE_DEFAULT,
    wander: d.wander ?? 0,
    daily: {
      amplitude: d.daily?.amplitude ?? 0,
      peakMs: (Number(peak.slice(0, 2)) * 60 + Number(peak.slice(3, 5))) * 60_000,
    },
    shifts: { rate: d.shifts?.rate ?? 0, size: d.shifts?.size ?? 0 },
    outages: { rate: d.outages?.rate ?? 0, meanMs: d.outages === undefined ? 0 : ms(d.outages.mean) },
    jitter: d.jitter ?? 0,
    ...(d.uncertainty === undefined ? {} : { uncertainty: { ...d.uncertainty } }),
  };
}

/** A drift model's default segment: an hour of blocks at its mean. */
const DRIFT_SEGMENT_MS = 3_600_000;
const DRIFT_PERSISTENCE_DEFAULT = 0.9;

function resolveGov(g: NonNullable<NonNullable<ScenarioDocument["chain"]>["gov"]>): GenesisGovParams {
  const d = GOV_DEFAULTS;
  return {
    minDeposit: coins(g.minDeposit ?? d.minDeposit),
    expeditedMinDeposit: coins(g.expeditedMinDeposit ?? d.expeditedMinDeposit),
    maxDepositPeriodMs: dur(g.maxDepositPeriod ?? d.maxDepositPeriod),
    votingPeriodMs: dur(g.votingPeriod ?? d.votingPeriod),
    expeditedVotingPeriodMs: dur(g.expeditedVotingPeriod ?? d.expeditedVotingPeriod),
    quorum: g.quorum ?? d.quorum,
    threshold: g.threshold ?? d.threshold,
    expeditedThreshold: g.expeditedThreshold ?? d.expeditedThreshold,
    vetoThreshold: g.vetoThreshold ?? d.vetoThreshold,
    minInitialDepositRatio: g.minInitialDepositRatio ?? d.minInitialDepositRatio,
    minDepositRatio: g.minDepositRatio ?? d.minDepositRatio,
    proposalCancelRatio: g.proposalCancelRatio ?? d.proposalCancelRatio,
    proposalCancelDest: g.proposalCancelDest ?? d.proposalCancelDest,
    burnVoteQuorum: g.burnVoteQuorum ?? d.burnVoteQuorum,
    burnProposalDepositPrevote: g.burnProposalDepositPrevote ?? d.burnProposalDepositPrevote,
    burnVoteVeto: g.burnVoteVeto ?? d.burnVoteVeto,
  };
}

type BinaryDocument = ScenarioDocument["binaries"][string];

function resolveBinary(name: string, b: BinaryDocument): BinaryModel {
  const modules = new Map<string, number>(BASE_MODULES.map((m) => [m, 1]));
  for (const [m, v] of entries(b.modules)) modules.set(m, v);
  const sortedModules = new Map([...modules].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0)));
  const migrations = new Map(
    entries(b.migrations)
      .sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))
      .map(([m, vs]) => [m, [...vs].sort((x, y) => x - y)] as const),
  );
  const upgrades = mapOf(b.upgrades, (u): UpgradeHandlerModel => {
    const su = u.storeUpgrades;
    const storeUpgrades: { storeUpgrades?: StoreUpgrades } =
      su === undefined
        ? {}
        : {
            storeUpgrades: {
              added: su.added ?? [],
              renamed: (su.renamed ?? []).map((r) => ({ oldKey: r.from, newKey: r.to })),
              deleted: su.deleted ?? [],
            },
          };
    const handler = u.handler ?? "migrate";
    return handler === "fail"
      ? { handler, failMessage: u.failMessage ?? SCENARIO_DEFAULTS.failMessage, ...storeUpgrades }
      : { handler, ...storeUpgrades };
  });
  return { name, modules: sortedModules, migrations, upgrades };
}

function resolveNodes(doc: ScenarioDocument, chain: ChainModel, genesisBinary: string): ReadonlyMap<string, NodeModel> {
  const options = doc.nodes ?? {};
  const base = options[DEFAULT_NODE_KEY] ?? {};
  const validatorNames = new Set(chain.validators.map((v) => v.name));
  const members: { name: string; power: number; validator: boolean }[] = [
    ...chain.validators.map((v) => ({ name: v.name, power: v.power, validator: true })),
    ...Object.keys(options)
      .filter((n) => n !== DEFAULT_NODE_KEY && !validatorNames.has(n))
      .map((name) => ({ name, power: 0, validator: false })),
  ];
  const nodes = new Map<string, NodeModel>();
  for (const m of members) {
    const own = options[m.name] ?? {};
    const sidecar = { ...base.sidecar, ...own.sidecar };
    const binaries = new Map([...entries(base.sidecar?.binaries), ...entries(own.sidecar?.binaries)]);
    const operator = resolveOperator(base.operator, own.operator, binaries);
    const disk = own.dataDiskBytes ?? base.dataDiskBytes;
    nodes.set(m.name, {
      ...m,
      binary: own.binary ?? base.binary ?? genesisBinary,
      skipUpgradeHeights: (own.skipUpgradeHeights ?? base.skipUpgradeHeights ?? []).map(height),
      sidecar: {
        enabled: sidecar.enabled ?? false,
        delayMs: dur(sidecar.delay ?? SCENARIO_DEFAULTS.sidecarDelay),
        binaries,
      },
      upgradeInfoWritable: own.upgradeInfoWritable ?? base.upgradeInfoWritable ?? true,
      ...(operator === undefined ? {} : { operator }),
      ...(disk === undefined ? {} : { dataDiskBytes: disk }),
    });
  }
  return nodes;
}

interface StepContext {
  readonly chain: ChainModel;
  /** Proposal label → proposer name. */
  readonly proposers: ReadonlyMap<string, string>;
  readonly firstNode: string;
}

function resolveTrigger(s: StepDocument, genesis: UnixMs): Trigger {
  if (s.at !== undefined) {
    return typeof s.at === "number"
      ? { kind: "height", height: height(s.at) }
      : { kind: "time", timeMs: timeOf(s.at.time, genesis) };
  }
  if (s.on === undefined) throw new InvariantError("step without trigger passed validation");
  return {
    kind: "halt",
    node: s.on.halt === ANY_NODE ? null : s.on.halt,
    ...(s.on.kind === undefined ? {} : { haltKind: s.on.kind }),
    ...(s.on.height === undefined ? {} : { height: height(s.on.height) }),
    delayMs: dur(s.delay ?? "0s"),
  };
}

function resolveStep(s: StepDocument, index: number, ctx: StepContext): Step {
  const trigger = resolveTrigger(s, ctx.chain.genesisTime);
  return {
    index,
    ...(s.label === undefined ? {} : { label: s.label }),
    trigger,
    action: resolveAction(s, ctx),
    ...(s.optional === true ? { optional: true } : {}),
  };
}

/** A Unix time in milliseconds as a protobuf Timestamp. */
const planTime = (ms: UnixMs): { seconds: bigint; nanos: number } => {
  const seconds = Math.floor(ms / 1000);
  return { seconds: BigInt(seconds), nanos: (ms - seconds * 1000) * 1_000_000 };
};

function resolveMessages(msgs: readonly UpgradeMessageDocument[] | undefined, authority: string): UpgradeMessage[] {
  return (msgs ?? []).map((m): UpgradeMessage => {
    if (m.softwareUpgrade !== undefined) {
      const u = m.softwareUpgrade;
      return {
        kind: "softwareUpgrade",
        authority: u.authority ?? authority,
        plan: {
          name: u.name,
          height: int64(u.height),
          info: u.info ?? "",
          ...(u.time === undefined ? {} : { time: planTime(must(parseRfc3339(u.time), "plan time")) }),
          ...(u.upgradedClientState === undefined
            ? {}
            : {
                upgradedClientState: {
                  typeUrl: u.upgradedClientState.typeUrl,
                  value: base64.decode(u.upgradedClientState.value ?? ""),
                },
              }),
        },
      };
    }
    return { kind: "cancelUpgrade", authority: m.cancelUpgrade?.authority ?? authority };
  });
}

const skipHeights = (hs: readonly number[] | undefined): { skipUpgradeHeights?: readonly Height[] } =>
  hs === undefined ? {} : { skipUpgradeHeights: hs.map(height) };

function resolveAction(s: StepDocument, ctx: StepContext): Action {
  if (s.submitProposal) {
    const p = s.submitProposal;
    const expedited = p.expedited ?? false;
    const title = p.title ?? p.id;
    const gov = ctx.chain.gov;
    return {
      kind: "submitProposal",
      id: p.id,
      proposer: p.proposer,
      title,
      summary: p.summary ?? title,
      metadata: p.metadata ?? "",
      deposit: p.deposit === undefined ? (expedited ? gov.expeditedMinDeposit : gov.minDeposit) : coins(p.deposit),
      expedited,
      messages: resolveMessages(p.messages, govAuthority(ctx.chain.bech32Prefix)),
    };
  }
  if (s.deposit)
    return { kind: "deposit", proposal: s.deposit.proposal, from: s.deposit.from, amount: coins(s.deposit.amount) };
  if (s.vote) return { kind: "vote", proposal: s.vote.proposal, votes: mapOf(s.vote.votes, (o) => o) };
  if (s.cancelProposal) {
    const { proposal, from } = s.cancelProposal;
    return { kind: "cancelProposal", proposal, from: from ?? ctx.proposers.get(proposal) ?? "" };
  }
  const prefix = ctx.chain.bech32Prefix;
  if (s.tx)
    return { kind: "tx", from: s.tx.from, messages: resolveMessages(s.tx.messages, addressOfName(s.tx.from, prefix)) };
  if (s.authorityExec)
    return { kind: "authorityExec", messages: resolveMessages(s.authorityExec.messages, govAuthority(prefix)) };
  if (s.swapBinary) {
    const { node, binary, skipUpgradeHeights } = s.swapBinary;
    return { kind: "swapBinary", node, binary, ...skipHeights(skipUpgradeHeights) };
  }
  if (s.restart) return { kind: "restart", node: s.restart.node, ...skipHeights(s.restart.skipUpgradeHeights) };
  if (s.stop) return { kind: "stop", node: s.stop.node };
  if (s.writeUpgradeInfo)
    return { kind: "writeUpgradeInfo", node: s.writeUpgradeInfo.node, content: s.writeUpgradeInfo.content };
  if (s.query) {
    const q = s.query;
    return {
      kind: "query",
      node: q.node ?? ctx.firstNode,
      path: q.path,
      ...(q.height === undefined ? {} : { height: q.height }),
      headers: mapOf(q.headers, (v) => v),
      expect: { status: q.expect.status, ...(q.expect.body === undefined ? {} : { body: q.expect.body }) },
    };
  }
  if (s.expect) return { kind: "expect", expect: resolveExpectations(s.expect) };
  throw new InvariantError("step without action passed validation");
}
