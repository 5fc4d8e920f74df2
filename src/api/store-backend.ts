import { StoreCtx } from "../app/context.js";
import { height, unixMs } from "../core/brand.js";
import { err, ok, type Result } from "../core/errors.js";
import type { MultiStore, StoreError } from "../store/types.js";
import type { BoundService, QueryBackend } from "./backend.js";

/** What the API needs of a versioned multistore (`VersionedMultiStore` satisfies it). */
export interface VersionedState {
  /** Last committed version, 0 before any commit. */
  latestVersion(): number;
  earliestVersion(): number;
  readAt(version: number): Result<MultiStore, StoreError>;
}

export interface StoreBackendOptions {
  readonly state: VersionedState;
  readonly chainId: string;
  readonly services: readonly BoundService[];
  /** App name of the "not ready" error; default `SimApp`. */
  readonly appName?: string;
  /** Block time of a committed height, for the query context; default 0. */
  readonly blockTimeMs?: (height: number) => number;
  /** Consensus app version at a height; default 0. */
  readonly appVersion?: (height: number) => bigint;
}

/** A QueryBackend reading a versioned multistore: each query runs on a read-only view of the requested version. */
export function storeBackend(opts: StoreBackendOptions): QueryBackend {
  return {
    appName: opts.appName ?? "SimApp",
    services: opts.services,
    latestHeight: () => opts.state.latestVersion(),
    earliestHeight: () => opts.state.earliestVersion(),
    stateAt(h) {
      const view = opts.state.readAt(h);
      if (!view.ok) return err(view.error.message);
      return ok(
        new StoreCtx(view.value, {
          chainId: opts.chainId,
          height: height(h),
          time: unixMs(opts.blockTimeMs?.(h) ?? 0),
          appVersion: opts.appVersion?.(h) ?? 0n,
        }),
      );
    },
  };
}
