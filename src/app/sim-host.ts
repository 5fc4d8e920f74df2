import { timestampMs } from "@bufbuild/protobuf/wkt";
import { BANK_STORE, BankKeeper } from "../bank/keeper.js";
import { assert, present } from "../core/assert.js";
import { BoundedCache } from "../core/bounded-cache.js";
import { height as toHeight, unixMs } from "../core/brand.js";
import { toHex } from "../core/bytes.js";
import { errorText } from "../core/errors.js";
import { MemoryFs, type MemoryFsSnapshot } from "../core/fs.js";
import { ProposalStatus } from "../gen/chain/gov/v1/gov_pb.js";
import { depositsOf, getProposal, votesOf } from "../gov/store.js";
import { prefixIterator } from "../store/prefix.js";
import type { PruningOptions } from "../store/pruning.js";
import type { MultiStore } from "../store/types.js";
import { type MultiStoreSnapshot, VersionedMultiStore } from "../store/versioned.js";
import { UpgradeKeeper } from "../upgrade/keeper.js";
import { donePrefix, parseDoneKey } from "../upgrade/keys.js";
import { upgradeStoreLoader } from "../upgrade/store-loader.js";
import { parseUpgradeInfoJson, planToUpgradeInfoJson } from "../upgrade/upgrade-info.js";
import type { BinaryDef } from "./binary.js";
import { StoreCtx } from "./context.js";
import { type AppHooks, NO_HOOKS } from "./hooks.js";
import type { AppHost, BankView, CommittedView, ProposalView, UpgradeInfoRead } from "./host.js";
import { type ChainGenesis, type NodeState, type ProcessImage, SimNodeProcess } from "./node-process.js";
import type { Halt, NodeConfig, NodeProcess } from "./types.js";

const UPGRADE_INFO = "data/upgrade-info.json";

/** A simulated node as plain data: its multistore, its file system, and its process if one runs. */
export interface SimNodeImage {
  readonly store: MultiStoreSnapshot;
  readonly fs: MemoryFsSnapshot;
  readonly home: string;
  readonly process: ProcessImage | undefined;
}

const COMMITTED_VIEWS_MAX = 256;

/** Mounted store names of a binary: one store per module. */
const storeNamesOf = (def: BinaryDef): string[] => [...def.modules.keys()];

/**
 * The application layer as the chain engine sees it: creates node states, starts binaries over them (store
 * loader included), and reads committed state for expectations and reports.
 */
export class SimAppHost implements AppHost<NodeState, SimNodeImage> {
  readonly #genesis: ChainGenesis;
  readonly #binaries: ReadonlyMap<string, BinaryDef>;
  readonly #genesisBinary: BinaryDef;
  readonly #pruning: PruningOptions;
  readonly #hooks: AppHooks;
  #genesisHash: string | undefined;
  /** readCommitted views by app hash (see there). */
  readonly #committedViews = new BoundedCache<string, CommittedView>(COMMITTED_VIEWS_MAX);
  /** readCommittedPlan results by app hash, for hashes without a view (bounded like the views). */
  readonly #committedPlans = new BoundedCache<string, CommittedView["plan"]>(COMMITTED_VIEWS_MAX);

  constructor(
    genesis: ChainGenesis,
    binaries: ReadonlyMap<string, BinaryDef>,
    genesisBinary: string,
    pruning: PruningOptions,
    hooks: AppHooks = NO_HOOKS,
  ) {
    this.#hooks = hooks;
    this.#genesis = genesis;
    this.#binaries = binaries;
    const g = binaries.get(genesisBinary);
    if (g === undefined) throw new Error(`unknown genesis binary ${genesisBinary}`);
    this.#genesisBinary = g;
    this.#pruning = pruning;
  }

  binary(name: string): BinaryDef | undefined {
    return this.#binaries.get(name);
  }

  genesisAppHash(): string {
    if (this.#genesisHash === undefined) {
      const scratch = this.createNodeState({ name: "genesis", upgradeInfoWritable: true } as NodeConfig);
      this.#genesisHash = this.#hooks.genesisAppHash(
        new SimNodeProcess(scratch, this.#genesisBinary, this.#genesis, []).genesisAppHash(),
      );
    }
    return this.#genesisHash;
  }

  createNodeState(cfg: NodeConfig): NodeState {
    const fs = new MemoryFs();
    const home = `/nodes/${cfg.name}`;
    fs.mkdirAll(home, 0o755);
    if (!cfg.upgradeInfoWritable) {
      fs.mkdirAll(`${home}/data`, 0o755);
      fs.setReadOnly(`${home}/data`, true);
    }
    if (cfg.dataDiskBytes !== undefined) fs.setWriteLimit(`${home}/data`, cfg.dataDiskBytes);
    return { store: this.#freshStore(this.#genesisBinary), fs, home };
  }

  /** An empty store with `def`'s stores mounted, whose first commit is the chain's initial height. */
  #freshStore(def: BinaryDef): VersionedMultiStore {
    return new VersionedMultiStore({
      storeNames: storeNamesOf(def),
      pruning: this.#pruning,
      initialVersion: this.#genesis.initialHeight ?? 1,
    });
  }

  cloneNodeState(state: NodeState): NodeState {
    return { store: state.store.clone(), fs: state.fs.clone(), home: state.home };
  }

  /**
   * Starting a binary (simapp's upgrade wiring): read upgrade-info.json (a read error panics in the reference;
   * here it is a `store-load-failed` halt), install the upgrade store loader when the file names a plan this
   * binary has store upgrades for and its height is not a skip height, then load the latest version with the
   * binary's stores mounted (a missing store fails the load).
   */
  start(
    state: NodeState,
    _cfg: NodeConfig,
    binary: string,
    skip: readonly number[],
  ): { readonly ok: true; readonly process: NodeProcess } | { readonly ok: false; readonly halt: Halt } {
    const def = this.#binaries.get(binary);
    if (def === undefined)
      return { ok: false, halt: { kind: "store-load-failed", message: `unknown binary ${binary}` } };
    const fail = (message: string) => ({ ok: false as const, halt: { kind: "store-load-failed" as const, message } });
    const last = state.store.latestVersion();
    if (last === 0) {
      // Fresh node: nothing committed yet; mount the binary's stores directly.
      state.store = this.#freshStore(def);
      return { ok: true, process: new SimNodeProcess(state, def, this.#genesis, skip, this.#hooks) };
    }
    const process = new SimNodeProcess(state, def, this.#genesis, skip, this.#hooks);
    const info = process.keeper.readUpgradeInfoFromDisk();
    if (!info.ok) return fail(`failed to read upgrade info from disk ${errorText(info.error)}`);
    const plan = info.value;
    let upgrades = undefined as ReturnType<ReturnType<typeof upgradeStoreLoader>> | undefined;
    const u = plan.name === "" ? undefined : def.upgrades.get(plan.name);
    if (u?.storeUpgrades !== undefined && !process.keeper.isSkipHeight(plan.height)) {
      upgrades = this.#hooks.storeLoader(upgradeStoreLoader)(plan.height, u.storeUpgrades)(last);
      if (!upgrades.ok) return fail(errorText(upgrades.error));
    }
    const store = state.store.reopen(storeNamesOf(def));
    const loaded =
      upgrades?.ok && upgrades.value.apply !== undefined
        ? store.loadLatestVersionAndUpgrade(upgrades.value.apply)
        : store.loadLatestVersion();
    state.store = store;
    if (!loaded.ok) return fail(errorText(loaded.error));
    return { ok: true, process };
  }

  snapshotNode(state: NodeState, process: NodeProcess | undefined): SimNodeImage {
    assert(process === undefined || process instanceof SimNodeProcess, "a node process of this host");
    return {
      store: state.store.snapshot(),
      fs: state.fs.snapshot(),
      home: state.home,
      process: process?.image(),
    };
  }

  restoreNode(image: SimNodeImage): { readonly state: NodeState; readonly process: NodeProcess | undefined } {
    const state: NodeState = {
      store: VersionedMultiStore.fromSnapshot(image.store),
      fs: MemoryFs.fromSnapshot(image.fs),
      home: image.home,
    };
    const p = image.process;
    if (p === undefined) return { state, process: undefined };
    const def = present(this.#binaries.get(p.binary), "an image's binary is one of this host's");
    return { state, process: SimNodeProcess.fromImage(state, def, this.#genesis, this.#hooks, p) };
  }

  lastHeight(state: NodeState): number {
    return state.store.latestVersion() || (this.#genesis.initialHeight ?? 1) - 1;
  }

  lastAppHash(state: NodeState): string {
    const hash = state.store.lastCommitId().appHash;
    let hex = hexOfHash.get(hash);
    if (hex === undefined) {
      hex = toHex(hash);
      hexOfHash.set(hash, hex);
    }
    return hex;
  }

  hasBinary(name: string): boolean {
    return this.#binaries.has(name);
  }

  binariesWithHandler(planName: string): readonly string[] {
    return [...this.#binaries.values()].filter((b) => b.upgrades.has(planName)).map((b) => b.name);
  }

  writeUpgradeInfo(
    state: NodeState,
    content: string,
  ): { readonly ok: true } | { readonly ok: false; readonly error: string } {
    const made = state.fs.mkdirAll(`${state.home}/data`, 0o755);
    if (!made.ok) return { ok: false, error: made.error.message };
    const written = state.fs.writeFile(`${state.home}/${UPGRADE_INFO}`, content, 0o600);
    return written.ok ? { ok: true } : { ok: false, error: written.error.message };
  }

  readUpgradeInfo(state: NodeState): UpgradeInfoRead {
    const text = state.fs.readFile(`${state.home}/${UPGRADE_INFO}`);
    if (!text.ok) return { kind: "absent" };
    const d = parseUpgradeInfoJson(text.value);
    if (!d.ok) return { kind: "invalid", error: errorText(d.error) };
    if (d.value.name === "" || d.value.height <= 0n) {
      return { kind: "invalid", error: "invalid upgrade-info.json content; name and height must be not empty" };
    }
    return { kind: "ok", name: d.value.name, height: Number(d.value.height), info: d.value.info };
  }

  /**
   * tools/cosmovisor/cmd/cosmovisor/add_upgrade.go: the name lower-cased (unless COSMOVISOR_DISABLE_RECASE), the
   * plan `{name, height}` marshalled and written to data/upgrade-info.json (mode 0o755, `--force` overwriting).
   */
  stageUpgradeInfo(state: NodeState, name: string, height: number): string | undefined {
    const json = planToUpgradeInfoJson({ name: name.toLowerCase(), height: BigInt(height), info: "" });
    // A live node's data/ exists (it holds the node's databases); this model creates it on the first write.
    const dir = state.fs.mkdirAll(`${state.home}/data`, 0o755);
    if (!dir.ok) return dir.error.message;
    const r = state.fs.writeFile(`${state.home}/${UPGRADE_INFO}`, json, 0o755);
    return r.ok ? undefined : r.error.message;
  }

  removeUpgradeInfo(state: NodeState): void {
    state.fs.removeFile(`${state.home}/${UPGRADE_INFO}`);
  }

  #committedCtx(state: NodeState): { ctx: StoreCtx; ms: MultiStore } | undefined {
    const v = state.store.latestVersion();
    if (v === 0) return undefined;
    const view = state.store.readAt(v);
    if (!view.ok) return undefined;
    return {
      ms: view.value,
      ctx: new StoreCtx(view.value, {
        chainId: this.#genesis.chainId,
        height: toHeight(v),
        time: unixMs(0),
        appVersion: 0n,
      }),
    };
  }

  readCommittedPlan(state: NodeState): CommittedView["plan"] {
    if (state.store.latestVersion() === 0) return null;
    const appHash = this.lastAppHash(state);
    const view = this.#committedViews.get(appHash);
    let plan = view === undefined ? this.#committedPlans.get(appHash) : view.plan;
    if (plan === undefined) {
      // As in #readCommittedUncached, from the same committed content (pinned by the app hash).
      const c = this.#committedCtx(state);
      const read = c === undefined ? undefined : committedReader(state).getUpgradePlan(c.ctx);
      plan =
        read === undefined || !read.ok
          ? null
          : { name: read.value.name, height: Number(read.value.height), info: read.value.info };
      this.#committedPlans.set(appHash, plan);
    }
    return plan === null ? null : { ...plan };
  }

  readCommitted(state: NodeState): CommittedView {
    const appHash = this.lastAppHash(state);
    if (state.store.latestVersion() === 0)
      return { plan: null, applied: new Map(), moduleVersions: new Map(), protocolVersion: 0, stores: [], appHash };
    // Everything the view shows is read from the last commit's content, which its app hash pins: the view of an
    // app hash is computed once (per host, bounded) and handed out as fresh copies.
    let v = this.#committedViews.get(appHash);
    if (v === undefined) {
      v = this.#readCommittedUncached(state);
      this.#committedViews.set(appHash, v);
    }
    return {
      ...v,
      plan: v.plan === null ? null : { ...v.plan },
      applied: new Map(v.applied),
      moduleVersions: new Map(v.moduleVersions),
      stores: [...v.stores],
    };
  }

  #readCommittedUncached(state: NodeState): CommittedView {
    const c = this.#committedCtx(state);
    const appHash = this.lastAppHash(state);
    if (c === undefined)
      return { plan: null, applied: new Map(), moduleVersions: new Map(), protocolVersion: 0, stores: [], appHash };
    const keeper = committedReader(state);
    const plan = keeper.getUpgradePlan(c.ctx);
    const applied = new Map<string, number>();
    for (const [k] of prefixIterator(c.ctx.kv("upgrade"), donePrefix())) {
      const d = parseDoneKey(k);
      if (d.ok && !applied.has(d.value.name)) applied.set(d.value.name, Number(d.value.height));
    }
    const moduleVersions = new Map<string, number>();
    for (const [name, v] of keeper.getModuleVersionMap(c.ctx)) moduleVersions.set(name, Number(v));
    return {
      plan: plan.ok ? { name: plan.value.name, height: Number(plan.value.height), info: plan.value.info } : null,
      applied,
      moduleVersions,
      protocolVersion: Number(keeper.getProtocolVersion(c.ctx)),
      stores: [...c.ms.storeNames()],
      appHash,
    };
  }

  /**
   * The committed balances of each address, and the total supply (bank's own bookkeeping, not the sum of the
   * balances). Nothing committed yet: all empty.
   */
  readBank(state: NodeState, addresses: readonly string[]): BankView {
    const c = this.#committedCtx(state);
    const bank = new BankKeeper(BANK_STORE, this.#genesis.bech32Prefix);
    return {
      balances: new Map(addresses.map((a) => [a, c === undefined ? [] : bank.allBalances(c.ctx, a)])),
      supply: c === undefined ? [] : bank.totalSupply(c.ctx),
    };
  }

  readProposalRecords(state: NodeState, id: bigint): { readonly votes: number; readonly deposits: number } {
    const c = this.#committedCtx(state);
    if (c === undefined) return { votes: 0, deposits: 0 };
    return { votes: votesOf(c.ctx, id).length, deposits: depositsOf(c.ctx, id).length };
  }

  readProposal(state: NodeState, id: bigint): ProposalView | undefined {
    const c = this.#committedCtx(state);
    if (c === undefined) return undefined;
    const p = getProposal(c.ctx, id);
    if (p === undefined) return undefined;
    const ms = (t: typeof p.submitTime) => (t === undefined ? undefined : timestampMs(t));
    const status = STATUS[p.status];
    if (status === undefined) return undefined;
    return {
      status,
      submitTimeMs: ms(p.submitTime) ?? 0,
      depositEndTimeMs: ms(p.depositEndTime) ?? 0,
      ...(ms(p.votingStartTime) === undefined ? {} : { votingStartTimeMs: ms(p.votingStartTime)! }),
      ...(ms(p.votingEndTime) === undefined ? {} : { votingEndTimeMs: ms(p.votingEndTime)! }),
      failedReason: p.failedReason,
      ...(p.finalTallyResult === undefined
        ? {}
        : {
            finalTally: {
              yes: p.finalTallyResult.yesCount,
              abstain: p.finalTallyResult.abstainCount,
              no: p.finalTallyResult.noCount,
              noWithVeto: p.finalTallyResult.noWithVetoCount,
            },
          }),
    };
  }
}

/** An upgrade keeper that only reads committed state (no skip heights, no authority). */
const committedReader = (state: NodeState): UpgradeKeeper =>
  new UpgradeKeeper({ skipUpgradeHeights: new Set(), homePath: state.home, fs: state.fs, authority: "" });

/** toHex of committed app hashes (each commit's hash array is never written to; clones share it). */
const hexOfHash = new WeakMap<Uint8Array, string>();

const STATUS: Partial<Record<ProposalStatus, ProposalView["status"]>> = {
  [ProposalStatus.DEPOSIT_PERIOD]: "deposit_period",
  [ProposalStatus.VOTING_PERIOD]: "voting_period",
  [ProposalStatus.PASSED]: "passed",
  [ProposalStatus.REJECTED]: "rejected",
  [ProposalStatus.FAILED]: "failed",
};
