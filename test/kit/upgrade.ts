import { StoreCtx } from "../../src/app/context.js";
import { govAuthority } from "../../src/core/address.js";
import { height, unixMs } from "../../src/core/brand.js";
import { type FileSystem, MemoryFs } from "../../src/core/fs.js";
import { MemMultiStore } from "../../src/store/mem-multistore.js";
import { UpgradeKeeper, type UpgradeKeeperOptions } from "../../src/upgrade/keeper.js";

/** Test fixtures for the upgrade module: a multistore with the `upgrade` store, contexts at chosen heights. */
export interface UpgradeTestEnv {
  readonly ms: MemMultiStore;
  readonly fs: FileSystem;
  readonly keeper: UpgradeKeeper;
  /** A context over the shared multistore at `h` (writes go straight to the store). */
  ctxAt(h: number, appVersion?: bigint): StoreCtx;
  /** The protocol versions the keeper pushed to its version setter, in order. */
  readonly versionsSet: bigint[];
}

export const HOME = "/home/node";

export function newUpgradeEnv(
  opts: Partial<UpgradeKeeperOptions> & { withVersionSetter?: boolean } = {},
): UpgradeTestEnv {
  const ms = new MemMultiStore(["upgrade", "bank"]);
  const fs = opts.fs ?? new MemoryFs();
  const versionsSet: bigint[] = [];
  const keeper = new UpgradeKeeper({
    skipUpgradeHeights: opts.skipUpgradeHeights ?? new Set(),
    homePath: opts.homePath ?? HOME,
    fs,
    authority: opts.authority ?? govAuthority(),
    ...(opts.withVersionSetter === false
      ? {}
      : { versionSetter: opts.versionSetter ?? { setProtocolVersion: (v: bigint) => versionsSet.push(v) } }),
  });
  const ctxAt = (h: number, appVersion = 0n) =>
    new StoreCtx(ms, {
      chainId: "test-chain",
      height: height(h),
      time: unixMs(1_700_000_000_000 + h * 1000),
      appVersion,
    });
  return { ms, fs, keeper, ctxAt, versionsSet };
}
