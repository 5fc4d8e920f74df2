import { BANK_STORE, BankKeeper } from "../bank/keeper.js";
import { addressOfName, govAuthority } from "../core/address.js";
import { height as toHeight, unixMs } from "../core/brand.js";
import { toHex } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import { type ChainError, errorText, type Result } from "../core/errors.js";
import type { MemoryFs } from "../core/fs.js";
import { GovKeeper } from "../gov/keeper.js";
import { queueFirst } from "../gov/store.js";
import type { StakingView } from "../gov/types.js";
import type { VersionedMultiStore } from "../store/versioned.js";
import type { Halt } from "../upgrade/halt.js";
import type { UpgradeKeeper } from "../upgrade/keeper.js";
import { newMsgServer, type UpgradeMsgServer } from "../upgrade/msg-server.js";
import { preBlock } from "../upgrade/preblocker.js";
import type { BinaryDef } from "./binary.js";
import { StoreCtx } from "./context.js";
import { deliverTx } from "./deliver.js";
import { CountingFs, identityOf, type SharedExecution } from "./execution-sharing.js";
import { type ChainGenesis, initChain } from "./genesis.js";
import { blockGovEvents } from "./gov-events.js";
import { type AppHooks, NO_HOOKS } from "./hooks.js";
import type { ModuleManager } from "./module-manager.js";
import type { ExecOutcome, NodeProcess, SimTx, TxResult } from "./types.js";
import { buildModuleManager, setUpgradeHandlers, upgradeRouter } from "./wiring.js";

export type { ChainGenesis, ImportedGenesis } from "./genesis.js";

/** A SimNodeProcess as plain data (see `image`). */
export interface ProcessImage {
  readonly binary: string;
  readonly skip: readonly number[];
  readonly downgradeVerified: boolean;
  readonly protocolVersion: bigint;
  readonly upgradeHeightGauge: bigint | undefined;
}

/** A node's persistent state: its multistore (replaced on each start, same backend) and its file system. */
export interface NodeState {
  store: VersionedMultiStore;
  readonly fs: MemoryFs;
  readonly home: string;
}

const MAX_HEIGHT = Number.MAX_SAFE_INTEGER;

/**
 * One process of a binary over a node's state: the BaseApp of a simulated node. Block execution order:
 * PreBlock (upgrade), BeginBlock (nothing here), transactions each in a branch, EndBlock (gov), then the
 * engine decides commit or abort. Genesis (InitChain) runs inside block 1, as in the reference.
 */
export class SimNodeProcess implements NodeProcess {
  readonly binary: string;
  readonly #state: NodeState;
  readonly #genesis: ChainGenesis;
  readonly #skip: readonly number[];
  readonly #hooks: AppHooks;
  readonly keeper: UpgradeKeeper;
  readonly #mm: ModuleManager;
  readonly #gov: GovKeeper;
  readonly #bank: BankKeeper;
  readonly #msgs: UpgradeMsgServer;
  #horizon: { heightEnd: number; timeEndMs: number } | undefined | null = null;
  #protocolVersion = 0n;
  /** The keeper's view of the node's file system, counting changes: a block that made one is not shared. */
  readonly #fs: CountingFs;
  /** The parts of the execution key fixed for the life of the process. */
  readonly #fixedKey: string;
  /** The last execute(), when it succeeded without touching the file system: its key before, and its effects. */
  #executed: SharedExecution | undefined;
  /** Set by commit() after such an execute (and by an adoption): that execution and the height it committed. */
  #committed: (SharedExecution & { readonly height: number }) | undefined;
  /** The protocol version the versionSetter set during the current execute(), if it did. */
  #protocolVersionSet: bigint | undefined;
  /** toHex of the last commit's app hash, for the hash array it was computed from. */
  #hex: { readonly of: Uint8Array; readonly hex: string } | undefined;

  constructor(
    state: NodeState,
    def: BinaryDef,
    genesis: ChainGenesis,
    skip: readonly number[],
    hooks: AppHooks = NO_HOOKS,
  ) {
    this.binary = def.name;
    this.#state = state;
    this.#genesis = genesis;
    this.#skip = skip;
    this.#hooks = hooks;
    this.#fs = new CountingFs(state.fs);
    this.#bank = new BankKeeper(BANK_STORE, genesis.bech32Prefix);
    this.#fixedKey = [
      identityOf(def),
      identityOf(genesis),
      [...new Set(skip)].sort((a, b) => a - b).join(","),
      identityOf(hooks),
    ].join("|");
    const keeperOpts = {
      skipUpgradeHeights: new Set(skip),
      homePath: state.home,
      fs: this.#fs,
      authority: govAuthority(genesis.bech32Prefix),
      versionSetter: {
        setProtocolVersion: (v: bigint) => {
          this.#protocolVersion = v;
          this.#protocolVersionSet = v;
        },
      },
    };
    this.keeper = new hooks.keeper(keeperOpts);
    this.#msgs = hooks.msgServer(newMsgServer(this.keeper), this.keeper);
    this.#mm = buildModuleManager(def, (name) => this.#state.store.hasStore(name));
    const staking: StakingView = {
      bondedValidators: () =>
        genesis.validators.map((v) => ({
          operator: v.operator ?? addressOfName(v.name, genesis.bech32Prefix),
          tokens: BigInt(v.power),
        })),
    };
    this.#gov = new GovKeeper({
      bank: this.#bank,
      staking,
      router: upgradeRouter(this.#msgs),
      config: genesis.govConfig,
      bech32Prefix: genesis.bech32Prefix,
    });
    setUpgradeHandlers(this.keeper, def, this.#mm);
  }

  get protocolVersion(): bigint {
    return this.#protocolVersion;
  }

  #ctx(height: number, timeMs: number): StoreCtx {
    return new StoreCtx(this.#state.store, {
      chainId: this.#genesis.chainId,
      height: toHeight(height),
      time: unixMs(timeMs),
      appVersion: 0n,
    });
  }

  lastHeight(): number {
    return this.#state.store.latestVersion() || (this.#genesis.initialHeight ?? 1) - 1;
  }

  lastAppHash(): string {
    const hash = this.#state.store.lastCommitId().appHash;
    if (this.#hex?.of !== hash) this.#hex = { of: hash, hex: toHex(hash) };
    return this.#hex.hex;
  }

  /**
   * Everything `execute` reads besides its arguments: the binary (handlers, modules, migrations), the genesis,
   * skip heights, the app hooks, the keeper's downgrade-verified flag, and the store (its own executionKey:
   * history, versions, mounted and live stores, clean working state). Not read, only written, by a block: the
   * in-memory protocol version and the keeper's upgrade-height gauge; an execution records what it set of them,
   * and an adoption sets the same (see adoptCommitted). The node's file system and home are read only on the way
   * to a halt, and a block that wrote to them is never shared (lastExecutionShareable). undefined when the store
   * cannot vouch.
   */
  executionKey(): string | undefined {
    const store = this.#state.store.executionKey();
    if (store === undefined) return undefined;
    // Read for every node at every block: the same parts give the same string, built once (hashed once as a map key).
    const verified = this.keeper.downgradeVerified();
    const m = this.#keyMemo;
    if (m !== undefined && m.store === store && m.verified === verified) return m.key;
    const key = `${this.#fixedKey}|${verified}|${store}`;
    this.#keyMemo = { store, verified, key };
    return key;
  }
  #keyMemo: { readonly store: string; readonly verified: boolean; readonly key: string } | undefined;

  lastExecutionShareable(): boolean {
    return this.#executed !== undefined;
  }

  /**
   * Takes over the block `source` executed and committed, instead of executing it. Contract (checked; a breach is
   * an engine bug and throws): `source` is a SimNodeProcess whose last execute started from this process's
   * current execution key, was shareable, and was committed at this process's next height, and `source` has
   * committed nothing since. Then execute + commit here would have produced the same outcome, the same writes
   * over the same store history (equal store keys: equal histories) and the same flag changes, so a clone of the
   * source's store (O(1): the backend forks), its downgrade-verified flag (equal before, set alike) and the
   * protocol version and gauge the block set, if it set them, leave this process exactly where execute + commit
   * would have.
   */
  adoptCommitted(source: NodeProcess): void {
    if (!(source instanceof SimNodeProcess)) throw new Error("adoptCommitted: foreign process");
    const from = source.#committed;
    const key = this.executionKey();
    if (
      from === undefined ||
      key === undefined ||
      from.key !== key ||
      from.height !== this.lastHeight() + 1 ||
      source.lastHeight() !== from.height
    )
      throw new Error("adoptCommitted: the source did not commit this process's next block from the same state");
    this.#state.store = source.#state.store.clone();
    this.keeper.setDowngradeVerified(source.keeper.downgradeVerified());
    if (from.upgradeHeightSet !== undefined) this.keeper.serverInfoUpgradeHeight = from.upgradeHeightSet;
    if (from.protocolVersionSet !== undefined) this.#protocolVersion = from.protocolVersionSet;
    this.#horizon = null;
    this.#executed = undefined;
    this.#committed = from;
  }

  /** InitChain (genesis.ts). */
  #initChain(ctx: Ctx): Result<void, ChainError> {
    return initChain(ctx, this.#genesis, { bank: this.#bank, gov: this.#gov, upgrade: this.keeper, mm: this.#mm });
  }

  /** Builds the genesis state into the working state (block 1's writes) and returns its app hash. */
  genesisAppHash(): string {
    const r = this.#initChain(this.#ctx(0, 0));
    if (!r.ok) throw new Error(`genesis failed: ${errorText(r.error)}`);
    const h = toHex(this.#state.store.workingAppHash());
    this.#state.store.discardWorking();
    return h;
  }

  execute(height: number, timeMs: number, txs: readonly SimTx[]): ExecOutcome {
    this.#horizon = null;
    this.#committed = undefined;
    const key = this.executionKey();
    const fsBefore = this.#fs.mutations;
    // The gauge is only ever assigned (a bigint), never read, while a block runs: cleared, it shows whether the
    // block set it, and it is restored when it did not.
    const gaugeBefore = this.keeper.serverInfoUpgradeHeight;
    this.keeper.serverInfoUpgradeHeight = undefined;
    this.#protocolVersionSet = undefined;
    let out: ExecOutcome;
    let upgradeHeightSet: bigint | undefined;
    try {
      out = this.#execute(height, timeMs, txs);
    } finally {
      upgradeHeightSet = this.keeper.serverInfoUpgradeHeight;
      this.keeper.serverInfoUpgradeHeight = upgradeHeightSet ?? gaugeBefore;
    }
    this.#executed =
      out.ok && key !== undefined && this.#fs.mutations === fsBefore
        ? { key, upgradeHeightSet, protocolVersionSet: this.#protocolVersionSet }
        : undefined;
    return out;
  }

  #execute(height: number, timeMs: number, txs: readonly SimTx[]): ExecOutcome {
    const ctx = this.#ctx(height, timeMs);
    if (this.#state.store.latestVersion() === 0) {
      const g = this.#initChain(ctx);
      if (!g.ok) return this.#halt(ctx, { kind: "handler-error", message: `InitChain failed: ${errorText(g.error)}` });
    }
    const before = this.keeper.getUpgradePlan(ctx);
    const pre = this.#hooks.preBlock(preBlock(this.keeper, ctx));
    if (!pre.ok) return this.#halt(ctx, pre.halt);
    let skipped: string | undefined;
    if (pre.applied === undefined && before.ok && !this.keeper.getUpgradePlan(ctx).ok) skipped = before.value.name;
    const txResults: TxResult[] = [];
    const cancelled: bigint[] = [];
    for (const tx of txs) {
      const b = ctx.branch();
      const { result, effects } = deliverTx(b.ctx, tx, { gov: this.#gov, upgrade: this.#msgs });
      if (result.ok) {
        b.write();
        if (effects.cancelled !== undefined) cancelled.push(effects.cancelled);
      }
      txResults.push(result);
    }
    const end = this.#gov.endBlocker(ctx);
    if (!end.ok)
      return this.#halt(ctx, { kind: "handler-error", message: `gov EndBlocker failed: ${errorText(end.error)}` });
    const gov = blockGovEvents(ctx.events, cancelled, end.value.outcomes);
    return {
      ok: true,
      appHash: toHex(this.#state.store.workingAppHash()),
      txResults,
      gov,
      events: ctx.events,
      logs: ctx.logs,
      ...(pre.applied === undefined ? {} : { applied: pre.applied.name }),
      ...(skipped === undefined ? {} : { skipped }),
    };
  }

  /** Drops the block's writes; keeps the log lines it wrote before the halt (a node prints them before it stops). */
  #halt(ctx: StoreCtx, halt: Halt): ExecOutcome {
    this.#state.store.discardWorking();
    return { ok: false, halt, logs: ctx.logs };
  }

  commit(): void {
    this.#horizon = null;
    this.#state.store.commit();
    const executed = this.#executed;
    this.#executed = undefined;
    // An object literal, not a spread: a spread of a spread-made object costs this V8 10-25 times as much.
    this.#committed =
      executed === undefined
        ? undefined
        : {
            key: executed.key,
            upgradeHeightSet: executed.upgradeHeightSet,
            protocolVersionSet: executed.protocolVersionSet,
            height: this.lastHeight(),
          };
  }

  abort(): void {
    this.#horizon = null;
    this.#executed = undefined;
    this.#committed = undefined;
    this.#state.store.discardWorking();
  }

  idleHorizon(): { heightEnd: number; timeEndMs: number } | undefined {
    if (this.#horizon !== null) return this.#horizon;
    this.#horizon = this.#computeHorizon();
    return this.#horizon;
  }

  #computeHorizon(): { heightEnd: number; timeEndMs: number } | undefined {
    const last = this.lastHeight();
    if (
      this.#state.store.latestVersion() === 0 ||
      !this.keeper.downgradeVerified() ||
      !this.#state.store.isWorkingClean()
    )
      return undefined;
    const ctx = this.#ctx(last, 0);
    let heightEnd = MAX_HEIGHT;
    const plan = this.keeper.getUpgradePlan(ctx);
    if (plan.ok) {
      if (this.keeper.hasHandler(plan.value.name)) return undefined;
      heightEnd = plan.value.height > BigInt(MAX_HEIGHT) ? MAX_HEIGHT : Number(plan.value.height);
    }
    let timeEndMs = Number.POSITIVE_INFINITY;
    for (const q of ["inactive", "active"] as const) {
      const first = queueFirst(ctx, q);
      if (first !== undefined) timeEndMs = Math.min(timeEndMs, first.time);
    }
    if (heightEnd <= last + 1) return undefined;
    return { heightEnd, timeEndMs };
  }

  commitIdle(count: number): void {
    this.#executed = undefined;
    this.#committed = undefined;
    this.#state.store.commitEmpty(count);
  }

  /**
   * The process's own state as plain data: its binary and skip heights, and what lives in memory only (the keeper's
   * downgrade-verified flag and upgrade-height gauge, the protocol version). Everything else is rebuilt from the
   * binary, the genesis and the hooks, or read from the node's state. Between blocks only (no uncommitted block).
   */
  image(): ProcessImage {
    return {
      binary: this.binary,
      skip: [...this.#skip],
      downgradeVerified: this.keeper.downgradeVerified(),
      protocolVersion: this.#protocolVersion,
      upgradeHeightGauge: this.keeper.serverInfoUpgradeHeight,
    };
  }

  /** The process of `image` over `state` (the node's state restored from the same snapshot). */
  static fromImage(
    state: NodeState,
    def: BinaryDef,
    genesis: ChainGenesis,
    hooks: AppHooks,
    image: ProcessImage,
  ): SimNodeProcess {
    const p = new SimNodeProcess(state, def, genesis, image.skip, hooks);
    p.keeper.setDowngradeVerified(image.downgradeVerified);
    p.keeper.serverInfoUpgradeHeight = image.upgradeHeightGauge;
    p.#protocolVersion = image.protocolVersion;
    return p;
  }
}
