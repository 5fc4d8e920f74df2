import type { BoundService, QueryBackend } from "../../src/api/backend.js";
import { type BlockSource, blockService } from "../../src/api/services/block.js";
import { upgradeQueryService } from "../../src/api/services/upgrade.js";
import { storeBackend } from "../../src/api/store-backend.js";
import { StoreCtx } from "../../src/app/context.js";
import { BlockStore } from "../../src/chain/block-store.js";
import { DEFAULT_BECH32_PREFIX, govAuthority } from "../../src/core/address.js";
import { height, unixMs } from "../../src/core/brand.js";
import { ok } from "../../src/core/errors.js";
import { MemoryFs } from "../../src/core/fs.js";
import { type AppConfig, parseAppToml } from "../../src/server/config.js";
import { PRUNE_EVERYTHING, PRUNE_NOTHING, type PruningOptions } from "../../src/store/pruning.js";
import { VersionedMultiStore } from "../../src/store/versioned.js";
import { UpgradeKeeper } from "../../src/upgrade/keeper.js";
import { makePlan } from "../../src/upgrade/plan.js";

/**
 * Fixtures for the API tests: an upgrade chain in a real VersionedMultiStore. Module versions {auth 5, bank 4} at
 * v1; plan `v2` (height 5) scheduled at v2; applied at v5 (bank → 5, `v2` done at 5); v6 is the latest.
 */
export const CHAIN_ID = "api-test";
export const GENESIS_MS = 1_700_000_000_000;
export const blockTimeMs = (h: number): number => GENESIS_MS + h * 5000;

export function newKeeper(): UpgradeKeeper {
  return new UpgradeKeeper({
    skipUpgradeHeights: new Set(),
    homePath: "",
    fs: new MemoryFs(),
    authority: govAuthority(),
  });
}

export function ctxAt(state: VersionedMultiStore, h: number): StoreCtx {
  return new StoreCtx(state, { chainId: CHAIN_ID, height: height(h), time: unixMs(blockTimeMs(h)), appVersion: 0n });
}

/** Commits `versions` blocks of the upgrade story (at most the first 6 change state; later ones are empty). */
export function upgradeChain(versions = 6, pruning: PruningOptions = PRUNE_NOTHING): VersionedMultiStore {
  const state = new VersionedMultiStore({ storeNames: ["upgrade"], pruning });
  const keeper = newKeeper();
  keeper.setUpgradeHandler("v2", (_ctx, _plan, vm) => ok(new Map([...vm, ["bank", 5n]])));
  for (let h = 1; h <= versions; h++) {
    const ctx = ctxAt(state, h);
    if (h === 1)
      keeper.setModuleVersionMap(
        ctx,
        new Map([
          ["bank", 4n],
          ["auth", 5n],
        ]),
      );
    if (h === 2) keeper.scheduleUpgrade(ctx, makePlan({ name: "v2", height: 5n }));
    if (h === 5) keeper.applyUpgrade(ctx, makePlan({ name: "v2", height: 5n }));
    state.commit();
  }
  return state;
}

/** A block source over a BlockStore with `n` idle blocks. */
export function blockSourceOf(n: number): BlockSource {
  const store = new BlockStore<Uint8Array>(
    CHAIN_ID,
    "00".repeat(32),
    "AB".repeat(32),
    [new Uint8Array(20).fill(7)],
    (t) => t,
  );
  for (let h = 1; h <= n; h++)
    store.append(h, blockTimeMs(h), h === 2 ? [Uint8Array.of(1, 2, 3)] : [], "CD".repeat(32));
  return {
    latestHeight: () => store.height,
    baseHeight: () => 1,
    blockMeta: (h) => store.meta(h),
    blockTxs: (h) => store.txs(h),
    syncing: () => false,
    nodeInfo: () => ({
      nodeId: "ab".repeat(20),
      listenAddr: "tcp://0.0.0.0:26656",
      network: CHAIN_ID,
      version: "0.38.17",
      moniker: "node0",
      rpcAddress: "tcp://127.0.0.1:26657",
      appName: "chainsimd",
      appVersion: "1.0.0",
      gitCommit: "",
      sdkVersion: "v0.50.10",
      protocolApp: 0n,
    }),
  };
}

export function backendOf(state: VersionedMultiStore, extra: readonly BoundService[] = []): QueryBackend {
  return storeBackend({
    state,
    chainId: CHAIN_ID,
    blockTimeMs,
    services: [upgradeQueryService(DEFAULT_BECH32_PREFIX), ...extra],
  });
}

/** The upgrade chain (6 versions, nothing pruned) with the upgrade and block services. */
export const standardBackend = (): QueryBackend =>
  backendOf(upgradeChain(), [blockService(blockSourceOf(6), DEFAULT_BECH32_PREFIX)]);

/** 20 versions with pruning "everything": queryable 18..20. */
export const prunedBackend = (): QueryBackend => backendOf(upgradeChain(20, PRUNE_EVERYTHING));

/** Nothing committed yet. */
export const emptyBackend = (): QueryBackend => backendOf(upgradeChain(0));

/** An app config serving REST and gRPC on loopback, free ports; extra lines go into `[api]` and `[grpc]`. */
export function loopbackConfig(api = "", grpc = ""): AppConfig {
  const cfg = parseAppToml(
    `[api]\nenable = true\naddress = "tcp://127.0.0.1:0"\n${api}\n[grpc]\naddress = "127.0.0.1:0"\n${grpc}\n`,
  );
  if (!cfg.ok) throw new Error(cfg.error.message);
  return cfg.value;
}
