import { create } from "@bufbuild/protobuf";
import { be64, compareUtf8, readBe64 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import {
  type ChainError,
  err,
  isError,
  ok,
  type PlainError,
  plain,
  type Result,
  SdkErrors,
  wrap,
} from "../core/errors.js";
import type { FileSystem } from "../core/fs.js";
import { join } from "../core/go/filepath.js";
import { quote } from "../core/go/strconv.js";
import type { KVStore } from "../core/kv.js";
import type { VersionMap } from "../core/module.js";
import { type ModuleVersion, ModuleVersionSchema, type Plan } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { prefixIterator, reversePrefixIterator } from "../store/prefix.js";
import { UpgradeErrors } from "./errors.js";
import {
  type DoneEntry,
  doneKey,
  donePrefix,
  moduleNameOfVersionKey,
  parseDoneKey,
  planKey,
  protocolVersionKey,
  STORE_KEY,
  upgradedClientKey,
  upgradedConsStateKey,
  versionMapKey,
  versionMapPrefix,
} from "./keys.js";
import { decodePlan, encodePlan, makePlan, validateBasic } from "./plan.js";
import {
  parseUpgradeInfoJson,
  planToUpgradeInfoJson,
  UPGRADE_INFO_FILENAME,
  type UpgradeInfoDecode,
} from "./upgrade-info.js";

/** Logger module of the keeper (`x/upgrade`). */
export const LOG_MODULE = "x/upgrade";

/** An upgrade handler: migrates state from `fromVM` and returns the new version map. */
export type UpgradeHandler = (ctx: Ctx, plan: Plan, fromVM: VersionMap) => Result<VersionMap, ChainError>;

/** The app's in-memory protocol (app) version, reported by ABCI Info. */
export interface ProtocolVersionSetter {
  setProtocolVersion(v: bigint): void;
}

export interface UpgradeKeeperOptions {
  /** Heights at which a due plan is skipped (`--unsafe-skip-upgrades`). */
  readonly skipUpgradeHeights: ReadonlySet<number>;
  /** Node home; upgrade-info.json lives in `<homePath>/data`. */
  readonly homePath: string;
  readonly fs: FileSystem;
  /** Address allowed to schedule and cancel upgrades (normally the gov module account). */
  readonly authority: string;
  readonly versionSetter?: ProtocolVersionSetter;
}

/** ReadUpgradeInfoFromDisk: like Go, a failure still carries the plan decoded so far. */
export type ReadUpgradeInfoResult =
  | { readonly ok: true; readonly value: Plan }
  | { readonly ok: false; readonly error: ChainError; readonly plan: Plan };

/** Go `sort.Strings` order: byte order of the UTF-8 encodings. */
// Stryker disable next-line ArrowFunction: the store's content and app hash do not depend on the order of writes
const byteCompare = (a: string, b: string): number => compareUtf8(a, b);

/**
 * The upgrade keeper (reference x/upgrade/keeper). State lives in the `upgrade` store of the context; handlers,
 * skip heights, the downgrade-verified flag and the init version map live in memory only.
 */
export class UpgradeKeeper {
  readonly #skipUpgradeHeights: ReadonlySet<number>;
  readonly #homePath: string;
  readonly #fs: FileSystem;
  readonly #authority: string;
  readonly #handlers = new Map<string, UpgradeHandler>();
  #versionSetter: ProtocolVersionSetter | undefined;
  #downgradeVerified = false;
  #initVersionMap: VersionMap | undefined;
  /**
   * Telemetry gauge `server_info{upgrade_height=<h>} = 1`: the label of the last setting (ScheduleUpgrade, or a
   * successful ReadUpgradeInfoFromDisk with height > 0); undefined while never set.
   */
  serverInfoUpgradeHeight: bigint | undefined;

  constructor(opts: UpgradeKeeperOptions) {
    this.#skipUpgradeHeights = opts.skipUpgradeHeights;
    this.#homePath = opts.homePath;
    this.#fs = opts.fs;
    this.#authority = opts.authority;
    this.#versionSetter = opts.versionSetter;
  }

  get authority(): string {
    return this.#authority;
  }

  #store(ctx: Ctx): KVStore {
    return ctx.kv(STORE_KEY);
  }

  // ---- handlers, flags, accessors -------------------------------------------------------------------------------

  /** Registers (or replaces) the handler for a plan name. */
  setUpgradeHandler(name: string, handler: UpgradeHandler): void {
    this.#handlers.set(name, handler);
  }

  hasHandler(name: string): boolean {
    return this.#handlers.has(name);
  }

  setVersionSetter(vs: ProtocolVersionSetter | undefined): void {
    this.#versionSetter = vs;
  }

  getVersionSetter(): ProtocolVersionSetter | undefined {
    return this.#versionSetter;
  }

  /** The version map InitGenesis merges into the store (set by app wiring); undefined when not set. */
  setInitVersionMap(vm: VersionMap | undefined): void {
    this.#initVersionMap = vm;
  }

  getInitVersionMap(): VersionMap | undefined {
    return this.#initVersionMap;
  }

  setDowngradeVerified(v: boolean): void {
    this.#downgradeVerified = v;
  }

  downgradeVerified(): boolean {
    return this.#downgradeVerified;
  }

  /** Whether `height` is one of the configured skip heights. */
  isSkipHeight(height: number | bigint): boolean {
    // Stryker disable next-line StringLiteral: typeof never yields "", and the bigint path answers a number alike
    if (typeof height === "number") return this.#skipUpgradeHeights.has(height);
    const n = Number(height);
    return Number.isSafeInteger(n) && this.#skipUpgradeHeights.has(n);
  }

  // ---- protocol version and module versions -----------------------------------------------------------------------

  /** Key 0x03 as BE64; 0 when absent. */
  getProtocolVersion(ctx: Ctx): bigint {
    const bz = this.#store(ctx).get(protocolVersionKey());
    return bz === undefined ? 0n : readBe64(bz);
  }

  setProtocolVersion(ctx: Ctx, v: bigint): void {
    this.#store(ctx).set(protocolVersionKey(), be64(v));
  }

  /**
   * Writes every entry of `vm` (names in byte order); an empty map is a no-op. Entries absent from `vm` are never
   * deleted, so modules dropped by a migration keep their old version in the store.
   */
  setModuleVersionMap(ctx: Ctx, vm: VersionMap): void {
    if (vm.size === 0) return;
    const store = this.#store(ctx);
    // Stryker disable next-line MethodExpression: the store's content and app hash do not depend on the order of writes
    for (const name of [...vm.keys()].sort(byteCompare)) store.set(versionMapKey(name), be64(vm.get(name)!));
  }

  /** The stored version map; its iteration order is the byte order of the module names. */
  getModuleVersionMap(ctx: Ctx): VersionMap {
    const vm = new Map<string, bigint>();
    for (const [key, value] of prefixIterator(this.#store(ctx), versionMapPrefix())) {
      vm.set(moduleNameOfVersionKey(key), readBe64(value));
    }
    return vm;
  }

  /** The stored versions as a list in byte order of the names (empty list when none). */
  getModuleVersions(ctx: Ctx): ModuleVersion[] {
    const out: ModuleVersion[] = [];
    for (const [key, value] of prefixIterator(this.#store(ctx), versionMapPrefix())) {
      out.push(create(ModuleVersionSchema, { name: moduleNameOfVersionKey(key), version: readBe64(value) }));
    }
    return out;
  }

  /** One module's version (linear scan, exact name match); ErrNoModuleVersionFound when absent. */
  getModuleVersion(ctx: Ctx, name: string): Result<bigint, ChainError> {
    for (const [key, value] of prefixIterator(this.#store(ctx), versionMapPrefix())) {
      if (moduleNameOfVersionKey(key) === name) return ok(readBe64(value));
    }
    return err(wrap(UpgradeErrors.ErrNoModuleVersionFound));
  }

  // ---- legacy IBC state ---------------------------------------------------------------------------------------------

  setUpgradedClient(ctx: Ctx, planHeight: bigint, bz: Uint8Array): void {
    this.#store(ctx).set(upgradedClientKey(planHeight), bz);
  }

  getUpgradedClient(ctx: Ctx, height: bigint): Result<Uint8Array, ChainError> {
    const bz = this.#store(ctx).get(upgradedClientKey(height));
    return bz === undefined ? err(wrap(UpgradeErrors.ErrNoUpgradedClientFound)) : ok(bz);
  }

  setUpgradedConsensusState(ctx: Ctx, planHeight: bigint, bz: Uint8Array): void {
    this.#store(ctx).set(upgradedConsStateKey(planHeight), bz);
  }

  getUpgradedConsensusState(ctx: Ctx, lastHeight: bigint): Result<Uint8Array, ChainError> {
    const bz = this.#store(ctx).get(upgradedConsStateKey(lastHeight));
    return bz === undefined ? err(wrap(UpgradeErrors.ErrNoUpgradedConsensusStateFound)) : ok(bz);
  }

  /** Deletes both IBC keys at `height`; nothing happens when they are absent. */
  clearIBCState(ctx: Ctx, height: bigint): void {
    const store = this.#store(ctx);
    store.delete(upgradedClientKey(height));
    store.delete(upgradedConsStateKey(height));
  }

  // ---- done markers -------------------------------------------------------------------------------------------------

  /**
   * The highest done key: highest height, ties broken by the greatest name bytes; `{name: "", height: 0}` when none.
   * A corrupt (short) done key is an error (the reference panics).
   */
  getLastCompletedUpgrade(ctx: Ctx): Result<DoneEntry, PlainError> {
    for (const [key] of reversePrefixIterator(this.#store(ctx), donePrefix())) return parseDoneKey(key);
    return ok({ name: "", height: 0n });
  }

  /** The height of the first done key with this exact name (the lowest height); 0 when none. */
  getDoneHeight(ctx: Ctx, name: string): Result<bigint, PlainError> {
    for (const [key] of prefixIterator(this.#store(ctx), donePrefix())) {
      const entry = parseDoneKey(key);
      if (!entry.ok) return entry;
      if (entry.value.name === name) return ok(entry.value.height);
    }
    return ok(0n);
  }

  /** Marks `name` done at the CURRENT block height. */
  setDone(ctx: Ctx, name: string): void {
    this.#store(ctx).set(doneKey(name, BigInt(ctx.height)), Uint8Array.of(1));
  }

  // ---- the plan -----------------------------------------------------------------------------------------------------

  /** The stored plan; ErrNoUpgradePlanFound when none; a decode error when the stored bytes are corrupt. */
  getUpgradePlan(ctx: Ctx): Result<Plan, ChainError> {
    const bz = this.#store(ctx).get(planKey());
    if (bz === undefined) return err(wrap(UpgradeErrors.ErrNoUpgradePlanFound));
    return decodePlan(bz);
  }

  /** Removes the stored plan and the IBC keys at its height; succeeds silently when no plan exists. */
  clearUpgradePlan(ctx: Ctx): Result<void, ChainError> {
    const old = this.getUpgradePlan(ctx);
    if (!old.ok) return isError(old.error, UpgradeErrors.ErrNoUpgradePlanFound) ? ok(undefined) : old;
    this.clearIBCState(ctx, old.value.height);
    this.#store(ctx).delete(planKey());
    return ok(undefined);
  }

  /**
   * ScheduleUpgrade: ValidateBasic; not in the past (equal height allowed); name not already done; clear the old
   * plan's IBC keys; write the plan (silently replacing any other); set the telemetry gauge. No handler check.
   */
  scheduleUpgrade(ctx: Ctx, plan: Plan): Result<void, ChainError> {
    const valid = validateBasic(plan);
    if (!valid.ok) return valid;
    if (plan.height < BigInt(ctx.height)) {
      return err(wrap(SdkErrors.ErrInvalidRequest, "upgrade cannot be scheduled in the past"));
    }
    const done = this.getDoneHeight(ctx, plan.name);
    if (!done.ok) return done;
    if (done.value !== 0n) {
      return err(wrap(SdkErrors.ErrInvalidRequest, `upgrade with name ${plan.name} has already been completed`));
    }
    const old = this.getUpgradePlan(ctx);
    if (!old.ok && !isError(old.error, UpgradeErrors.ErrNoUpgradePlanFound)) return old;
    if (old.ok) this.clearIBCState(ctx, old.value.height);
    this.#store(ctx).set(planKey(), encodePlan(plan));
    this.serverInfoUpgradeHeight = plan.height;
    return ok(undefined);
  }

  /**
   * ApplyUpgrade: run the handler on the stored version map, store its result, bump the protocol version (state
   * and version setter), clear the plan's IBC keys and WHATEVER plan is stored, and mark the plan's name done at the
   * current height. It does not compare `plan.height` with the current height.
   */
  applyUpgrade(ctx: Ctx, plan: Plan): Result<void, ChainError> {
    const handler = this.#handlers.get(plan.name);
    if (handler === undefined)
      return err(plain("ApplyUpgrade should never be called without first checking HasHandler"));
    const fromVM = this.getModuleVersionMap(ctx);
    const toVM = handler(ctx, plan, fromVM);
    if (!toVM.ok) return toVM;
    this.setModuleVersionMap(ctx, toVM.value);
    const next = this.getProtocolVersion(ctx) + 1n;
    this.setProtocolVersion(ctx, next);
    this.#versionSetter?.setProtocolVersion(next);
    this.clearIBCState(ctx, plan.height);
    const cleared = this.clearUpgradePlan(ctx);
    if (!cleared.ok) return cleared;
    this.setDone(ctx, plan.name);
    return ok(undefined);
  }

  // ---- upgrade-info.json --------------------------------------------------------------------------------------------

  /** `<homePath>/data/upgrade-info.json`, creating `<homePath>/data` first. */
  getUpgradeInfoPath(): Result<string, PlainError> {
    const dir = join(this.#homePath, "data");
    const made = this.#fs.mkdirAll(dir, 0o777);
    if (!made.ok) return err(plain(`could not create directory ${quote(dir)}: ${made.error.message}`));
    return ok(join(dir, UPGRADE_INFO_FILENAME));
  }

  /** Writes `{name: p.name, height, info: p.info}` (mode 0600); the height is the argument, not `p.height`. */
  dumpUpgradeInfoToDisk(height: bigint, p: Plan): Result<void, PlainError> {
    const path = this.getUpgradeInfoPath();
    if (!path.ok) return path;
    const json = planToUpgradeInfoJson({ name: p.name, height, info: p.info });
    const written = this.#fs.writeFile(path.value, json, 0o600);
    return written.ok ? ok(undefined) : err(plain(written.error.message));
  }

  /**
   * Reads upgrade-info.json: absent file → zero plan without error; read and JSON errors returned; then ValidateBasic,
   * whose error comes back together with the decoded plan; a valid plan sets the telemetry gauge.
   */
  readUpgradeInfoFromDisk(): ReadUpgradeInfoResult {
    const path = this.getUpgradeInfoPath();
    if (!path.ok) return { ok: false, error: path.error, plan: makePlan({}) };
    const data = this.#fs.readFile(path.value);
    if (!data.ok) {
      if (data.error.code === "ENOENT") return { ok: true, value: makePlan({}) };
      return { ok: false, error: plain(data.error.message), plan: makePlan({}) };
    }
    const decoded: UpgradeInfoDecode = parseUpgradeInfoJson(data.value);
    if (!decoded.ok) return decoded;
    const valid = validateBasic(decoded.value);
    if (!valid.ok) return { ok: false, error: valid.error, plan: decoded.value };
    if (decoded.value.height > 0n) this.serverInfoUpgradeHeight = decoded.value.height;
    return { ok: true, value: decoded.value };
  }
}
