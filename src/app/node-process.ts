import { fromBinary } from "@bufbuild/protobuf";
import { BANK_STORE, BankKeeper } from "../bank/keeper.js";
import { addressOfName, govAuthority } from "../core/address.js";
import { height as toHeight, unixMs } from "../core/brand.js";
import { toHex } from "../core/bytes.js";
import type { Ctx, Event } from "../core/context.js";
import { type ChainError, err, errorText, ok, plain, type Result } from "../core/errors.js";
import type { FileSystem, MemoryFs } from "../core/fs.js";
import type { AppModule } from "../core/module.js";
import type { Params } from "../gen/chain/gov/v1/gov_pb.js";
import { MsgSoftwareUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import type { Plan } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { type GovGenesisProposals, initGenesisProposals } from "../gov/genesis.js";
import { GovKeeper } from "../gov/keeper.js";
import { queueFirst } from "../gov/store.js";
import type { GovConfig, MsgRouter, StakingView } from "../gov/types.js";
import type { VersionedMultiStore } from "../store/versioned.js";
import type { Halt } from "../upgrade/halt.js";
import type { UpgradeKeeper } from "../upgrade/keeper.js";
import { doneKey, planKey } from "../upgrade/keys.js";
import { newMsgServer, type UpgradeMsgServer } from "../upgrade/msg-server.js";
import { encodePlan } from "../upgrade/plan.js";
import { preBlock } from "../upgrade/preblocker.js";
import type { BinaryDef } from "./binary.js";
import { DEFAULT_FAIL_MESSAGE } from "./binary.js";
import { StoreCtx } from "./context.js";
import { deliverTx } from "./deliver.js";
import { type AppHooks, NO_HOOKS } from "./hooks.js";
import { genesisMarkerKey, markerValue, migrationMarkerKey } from "./markers.js";
import { ModuleManager } from "./module-manager.js";
import type { ExecOutcome, GovBlockEvent, NodeProcess, SimTx, TxResult } from "./types.js";

/** Chain-wide facts every node shares (genesis). */
export interface ChainGenesis {
  readonly chainId: string;
  /**
   * The bech32 account prefix (`chain.bech32Prefix`, default `chain`): every account, module and authority address,
   * and the validators' `valoper`/`valcons` prefixes derive from it.
   */
  readonly bech32Prefix: string;
  /**
   * Validators by name; a validator votes from `operator` when given (the devnet: its key's address), else from its
   * name-derived address (scenarios).
   */
  readonly validators: readonly { readonly name: string; readonly power: number; readonly operator?: string }[];
  /** Genesis balances by bech32 address. */
  readonly balances: readonly {
    readonly address: string;
    readonly coins: readonly { denom: string; amount: bigint }[];
  }[];
  readonly govParams: Params;
  readonly govConfig: GovConfig;
  /** CometBFT's `initial_height` (the first block, whose version the store commits first); absent: 1. */
  readonly initialHeight?: number;
  /** State a profile imported (a scenario `from:` it), written by InitChain after the params. */
  readonly imported?: ImportedGenesis;
}

/**
 * What a chain imported from a profile holds at genesis besides balances and params: gov's proposals and deposits (x/gov
 * genesis, deposits already in the gov module account's genesis balance), the upgrade store's pending plan and done
 * markers, as the live chain held them.
 */
export interface ImportedGenesis {
  readonly gov: GovGenesisProposals;
  readonly plan: Plan | undefined;
  readonly done: readonly { readonly name: string; readonly height: bigint }[];
}

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

/** Identity numbers of binary definitions and genesis objects, for execution keys (equal objects, equal keys). */
const identities = new WeakMap<object, number>();
let nextIdentity = 1;
function identityOf(o: object): number {
  let id = identities.get(o);
  if (id === undefined) identities.set(o, (id = nextIdentity++));
  return id;
}

/** A shareable execution: the execution key it started from, and what it set outside the store. */
interface SharedExecution {
  readonly key: string;
  /** The keeper's upgrade-height gauge (`server_info{upgrade_height}`), if the block set it. */
  readonly upgradeHeightSet: bigint | undefined;
  /** The in-memory protocol version, if the block set it (an upgrade applied). */
  readonly protocolVersionSet: bigint | undefined;
}

/** A FileSystem that counts the calls that may change it (failed ones included). */
class CountingFs implements FileSystem {
  readonly #fs: FileSystem;
  mutations = 0;
  constructor(fs: FileSystem) {
    this.#fs = fs;
  }
  readFile(path: string) {
    return this.#fs.readFile(path);
  }
  writeFile(path: string, data: string, mode: number) {
    this.mutations++;
    return this.#fs.writeFile(path, data, mode);
  }
  mkdirAll(path: string, mode: number) {
    this.mutations++;
    return this.#fs.mkdirAll(path, mode);
  }
  exists(path: string): boolean {
    return this.#fs.exists(path);
  }
}

/**
 * One process of a binary over a node's state: the BaseApp of a simulated node. Block execution order:
 * PreBlock (upgrade), BeginBlock (nothing here), transactions each in a branch, EndBlock (gov), then the
 * engine decides commit or abort. Genesis (InitChain) runs inside block 1, as in the reference.
 */
export class SimNodeProcess implements NodeProcess {
  readonly binary: string;
  readonly #def: BinaryDef;
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
    this.#def = def;
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
    this.#mm = this.#buildModuleManager();
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
      router: this.#router(),
      config: genesis.govConfig,
      bech32Prefix: genesis.bech32Prefix,
    });
    for (const [planName, u] of def.upgrades) {
      this.keeper.setUpgradeHandler(planName, (ctx, _plan, fromVM) => {
        switch (u.handler) {
          case "noop":
            return ok(fromVM);
          case "fail":
            return err(plain(u.failMessage ?? DEFAULT_FAIL_MESSAGE));
          case "migrate":
            return this.#mm.runMigrations(ctx, fromVM);
        }
      });
    }
  }

  #buildModuleManager(): ModuleManager {
    const hasStore = (name: string) => this.#state.store.hasStore(name);
    const modules: AppModule[] = [...this.#def.modules].map(([name, version]) => ({
      name,
      consensusVersion: BigInt(version),
      initGenesis: (ctx: Ctx): Result<void, ChainError> => {
        if (!hasStore(name))
          return err(plain(`store ${name} is not mounted: new stores should be added using StoreUpgrades`));
        ctx.kv(name).set(genesisMarkerKey(), markerValue(ctx.height));
        return ok(undefined);
      },
    }));
    const mm = new ModuleManager(modules);
    for (const [module, froms] of this.#def.migrations) {
      for (const from of froms) {
        mm.configurator.registerMigration(module, BigInt(from), (ctx) => {
          if (!hasStore(module)) return err(plain(`store ${module} is not mounted`));
          ctx.kv(module).set(migrationMarkerKey(from), markerValue(ctx.height));
          return ok(undefined);
        });
      }
    }
    return mm;
  }

  #router(): MsgRouter {
    return {
      route: (ctx, msg) => {
        if (!msg.typeUrl.startsWith("/chain.upgrade.v1beta1.Msg")) return undefined;
        const r = this.#msgs.route(ctx, msg.typeUrl, msg.value);
        return r.ok ? ok(undefined) : r;
      },
      inspect: (msg) => {
        if (!msg.typeUrl.startsWith("/chain.upgrade.v1beta1.Msg")) return undefined;
        const authority = decodeAuthority(msg.value);
        return authority.ok ? ok({ signers: [authority.value] }) : authority;
      },
    };
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

  /** InitChain: balances, gov params and the module version map (the legacy InitChainer path). */
  #initChain(ctx: Ctx): Result<void, ChainError> {
    for (const b of this.#genesis.balances) {
      const r = this.#bank.mint(ctx, b.address, b.coins);
      if (!r.ok) return r;
    }
    const g = this.#gov.initGenesis(ctx, this.#genesis.govParams);
    if (!g.ok) return g;
    this.keeper.setModuleVersionMap(ctx, this.#mm.getVersionMap());
    const imported = this.#genesis.imported;
    if (imported === undefined) return ok(undefined);
    const proposals = initGenesisProposals(ctx, this.#bank, imported.gov);
    if (!proposals.ok) return proposals;
    // The upgrade store as the live chain held it: the pending plan (x/upgrade's plan key) and the done markers.
    const upgrade = ctx.kv("upgrade");
    if (imported.plan !== undefined) upgrade.set(planKey(), encodePlan(imported.plan));
    for (const d of imported.done) upgrade.set(doneKey(d.name, d.height), Uint8Array.of(1));
    return ok(undefined);
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
    const gov: GovBlockEvent[] = [...govEventsFrom(ctx.events)];
    for (const id of cancelled) gov.push({ kind: "cancelled", id });
    for (const o of end.value.outcomes) {
      switch (o.kind) {
        case "dropped":
          gov.push({ kind: "dropped", id: o.id });
          break;
        case "passed":
          gov.push({ kind: "passed", id: o.id });
          break;
        case "failed":
          gov.push({ kind: "failed", id: o.id, reason: o.failedReason });
          break;
        case "rejected":
          gov.push({ kind: "rejected", id: o.id });
          break;
        case "expedited-fallback":
          gov.push({ kind: "expedited-fallback", id: o.id });
          break;
      }
    }
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
    this.#committed = executed === undefined ? undefined : { ...executed, height: this.lastHeight() };
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

/** Submission and activation facts from the gov events of a block. */
function* govEventsFrom(events: readonly Event[]): Generator<GovBlockEvent> {
  for (const e of events) {
    if (e.type !== "submit_proposal" && e.type !== "proposal_deposit") continue;
    for (const a of e.attributes) {
      if (a.key === "voting_period_start") yield { kind: "voting-started", id: BigInt(a.value) };
      else if (a.key === "proposal_id" && e.type === "submit_proposal")
        yield { kind: "submitted", id: BigInt(a.value) };
    }
  }
}

/** Both upgrade messages carry `authority` as field 1, so one decoder reads the signer of either. */
function decodeAuthority(value: Uint8Array): Result<string, ChainError> {
  try {
    return ok(fromBinary(MsgSoftwareUpgradeSchema, value).authority);
  } catch (e) {
    return err(plain(`failed to decode upgrade message: ${e instanceof Error ? e.message : String(e)}`));
  }
}
