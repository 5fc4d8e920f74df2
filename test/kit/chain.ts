import type { BinaryDef, UpgradeDef } from "../../src/app/binary.js";
import type { ChainGenesis } from "../../src/app/node-process.js";
import { SimAppHost } from "../../src/app/sim-host.js";
import type { NodeConfig, SidecarConfig, UpgradeMessage } from "../../src/app/types.js";
import type { Action, Step, Trigger } from "../../src/chain/actions.js";
import type { BlockTimeModel } from "../../src/chain/block-time.js";
import { ChainEngine, type EngineOptions } from "../../src/chain/engine.js";
import { addressOfName, DEFAULT_BECH32_PREFIX, govAuthority } from "../../src/core/address.js";
import { durationMs, unixMs } from "../../src/core/brand.js";
import { defaultParams } from "../../src/gov/params.js";
import { DEFAULT_GOV_CONFIG } from "../../src/gov/types.js";
import { PRUNE_NOTHING } from "../../src/store/pruning.js";

/** Small builders for engine tests: binaries, a default genesis and a chain of N validators. */
export function binary(
  name: string,
  upgrades: Record<string, UpgradeDef> = {},
  modules: Record<string, number> = {},
  migrations: Record<string, number[]> = {},
): BinaryDef {
  return {
    name,
    modules: new Map(Object.entries({ upgrade: 1, gov: 1, bank: 1, ...modules })),
    migrations: new Map(Object.entries(migrations)),
    upgrades: new Map(Object.entries(upgrades)),
  };
}

export interface TestChainOptions {
  readonly validators?: readonly { name: string; power: number }[];
  readonly binaries: readonly BinaryDef[];
  readonly genesisBinary?: string;
  readonly blockTime?: BlockTimeModel;
  readonly seed?: number;
  readonly votingPeriodMs?: number;
  readonly depositPeriodMs?: number;
  readonly nodes?: Partial<Record<string, Partial<NodeConfig>>>;
  readonly steps?: readonly Step[];
  readonly engine?: EngineOptions;
}

export function testChain(o: TestChainOptions) {
  const validators = o.validators ?? [
    { name: "val1", power: 100 },
    { name: "val2", power: 100 },
    { name: "val3", power: 100 },
    { name: "val4", power: 100 },
  ];
  const params = defaultParams();
  if (o.votingPeriodMs !== undefined)
    params.votingPeriod = { $typeName: "google.protobuf.Duration", seconds: BigInt(o.votingPeriodMs / 1000), nanos: 0 };
  if (o.depositPeriodMs !== undefined)
    params.maxDepositPeriod = {
      $typeName: "google.protobuf.Duration",
      seconds: BigInt(o.depositPeriodMs / 1000),
      nanos: 0,
    };
  if (o.votingPeriodMs !== undefined)
    params.expeditedVotingPeriod = {
      $typeName: "google.protobuf.Duration",
      seconds: BigInt(Math.max(1, o.votingPeriodMs / 2000)),
      nanos: 0,
    };
  const genesis: ChainGenesis = {
    chainId: "chain-sim-1",
    bech32Prefix: DEFAULT_BECH32_PREFIX,
    validators,
    balances: validators.map((v) => ({
      address: addressOfName(v.name),
      coins: [{ denom: "stake", amount: 1_000_000_000_000n }],
    })),
    govParams: params,
    govConfig: DEFAULT_GOV_CONFIG,
  };
  const genesisBinary = o.genesisBinary ?? o.binaries[0]!.name;
  const host = new SimAppHost(genesis, new Map(o.binaries.map((b) => [b.name, b])), genesisBinary, PRUNE_NOTHING);
  const nodes: NodeConfig[] = validators.map((v) => ({
    name: v.name,
    power: v.power,
    binary: genesisBinary,
    skipUpgradeHeights: [],
    sidecar: { enabled: false, delayMs: durationMs(0), binaries: new Map() },
    upgradeInfoWritable: true,
    ...o.nodes?.[v.name],
  }));
  for (const [name, cfg] of Object.entries(o.nodes ?? {})) {
    if (validators.some((v) => v.name === name)) continue;
    nodes.push({
      name,
      power: 0,
      binary: genesisBinary,
      skipUpgradeHeights: [],
      sidecar: { enabled: false, delayMs: durationMs(0), binaries: new Map() },
      upgradeInfoWritable: true,
      ...cfg,
    });
  }
  return ChainEngine.create(
    {
      chainId: "chain-sim-1",
      bech32Prefix: DEFAULT_BECH32_PREFIX,
      genesisTimeMs: unixMs(Date.UTC(2026, 0, 1)),
      seed: o.seed ?? 1,
      blockTime: o.blockTime ?? { kind: "fixed", intervalMs: durationMs(6000) },
    },
    host,
    nodes,
    o.steps ?? [],
    o.engine ?? {},
  );
}

/** Steps from (trigger, action) pairs, indexed in order. */
export const steps = (...list: [Trigger, Action][]): Step[] =>
  list.map(([trigger, action], index) => ({ index, trigger, action }));
export const at = (height: number): Trigger => ({ kind: "height", height });
/** An emergency schedule of plan `v2` at `height` through authorityExec. */
export const schedule = (height: number): Action => ({
  kind: "authorityExec",
  messages: [
    { kind: "softwareUpgrade", authority: govAuthority(), plan: { name: "v2", height: BigInt(height), info: "" } },
  ],
});

/** v1 (no handler), v2 (migrate `v2`, adds store `foo`, upgrade module 1 → 2), v2early (noop handler). */
export const UPGRADE_BINARIES: readonly BinaryDef[] = [
  binary("v1"),
  binary(
    "v2",
    { v2: { handler: "migrate", storeUpgrades: { added: ["foo"], renamed: [], deleted: [] } } },
    { foo: 1, upgrade: 2 },
    { upgrade: [1] },
  ),
  binary("v2early", { v2: { handler: "noop" } }),
];

/** val1 proposes plan `v2` at `planHeight` with the minimum deposit at height 2; val1-val3 vote yes at height 3. */
export function proposeAndPass(planHeight: number, title = "v2", summary = "upgrade to v2"): Step[] {
  return [
    {
      index: 0,
      trigger: { kind: "height", height: 2 },
      action: {
        kind: "submitProposal",
        id: "up",
        proposer: "val1",
        title,
        summary,
        metadata: "",
        deposit: [{ denom: "stake", amount: 10_000_000n }],
        expedited: false,
        messages: [
          {
            kind: "softwareUpgrade",
            authority: govAuthority(),
            plan: { name: "v2", height: BigInt(planHeight), info: "" },
          },
        ],
      },
    },
    {
      index: 1,
      trigger: { kind: "height", height: 3 },
      action: {
        kind: "vote",
        proposal: "up",
        votes: new Map([
          ["val1", "yes"],
          ["val2", "yes"],
          ["val3", "yes"],
        ]),
      },
    },
  ];
}

/** val1 submits proposal `id` carrying `msg`, with the minimum deposit. */
export const submitProposal = (id: string, msg: UpgradeMessage): Action => ({
  kind: "submitProposal",
  id,
  proposer: "val1",
  title: id,
  summary: id,
  metadata: "",
  deposit: [{ denom: "stake", amount: 10_000_000n }],
  expedited: false,
  messages: [msg],
});
/** Schedules plan `v2` at `height`. */
export const upgradeTo = (height: number): UpgradeMessage => ({
  kind: "softwareUpgrade",
  authority: govAuthority(),
  plan: { name: "v2", height: BigInt(height), info: "" },
});
/** val1-val3 (3/4 of the power) vote yes. */
export const yesVotes = (proposal: string): Action => ({
  kind: "vote",
  proposal,
  votes: new Map([
    ["val1", "yes"],
    ["val2", "yes"],
    ["val3", "yes"],
  ]),
});
export const swap = (node: string, binary: string): Action => ({ kind: "swapBinary", node, binary });
/** A sidecar that swaps to `v2` for plan `v2` ten minutes after the halt. */
export const SIDECAR_10M: { sidecar: SidecarConfig } = {
  sidecar: { enabled: true, delayMs: durationMs(600_000), binaries: new Map([["v2", "v2"]]) },
};
/** Sidecars on the four default validators. */
export const ALL_SIDECARS_10M = Object.fromEntries(["val1", "val2", "val3", "val4"].map((n) => [n, SIDECAR_10M]));
/** The upgrade binaries with 10-minute deposit and voting periods. */
export const UPGRADE_BASE = { binaries: UPGRADE_BINARIES, votingPeriodMs: 600_000, depositPeriodMs: 600_000 };
