import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";

/**
 * Pruning options (reference: store/pruning/types/options.go, server/pruning.go). `keepRecent` and `interval`
 * are the effective values: the presets fill them in, `nothing` has 0/0 and never prunes.
 */
export type PruningStrategy = "default" | "nothing" | "everything" | "custom";

export interface PruningOptions {
  readonly strategy: PruningStrategy;
  readonly keepRecent: number;
  readonly interval: number;
}

const EVERYTHING_KEEP_RECENT = 2;
const EVERYTHING_INTERVAL = 10;
const DEFAULT_KEEP_RECENT = 362880;
const DEFAULT_INTERVAL = 10;

export const PRUNE_DEFAULT: PruningOptions = Object.freeze({
  strategy: "default",
  keepRecent: DEFAULT_KEEP_RECENT,
  interval: DEFAULT_INTERVAL,
});
export const PRUNE_EVERYTHING: PruningOptions = Object.freeze({
  strategy: "everything",
  keepRecent: EVERYTHING_KEEP_RECENT,
  interval: EVERYTHING_INTERVAL,
});
export const PRUNE_NOTHING: PruningOptions = Object.freeze({ strategy: "nothing", keepRecent: 0, interval: 0 });

const CUSTOM_PREFIX = "invalid custom pruning options: ";
export const ERR_PRUNING_INTERVAL_ZERO = `'pruning-interval' must not be 0. If you want to disable pruning, select pruning = "nothing"`;
export const ERR_PRUNING_INTERVAL_TOO_SMALL = `'pruning-interval' must not be less than ${EVERYTHING_INTERVAL}. For the most aggressive pruning, select pruning = "everything"`;
export const ERR_PRUNING_KEEP_RECENT_TOO_SMALL = `'pruning-keep-recent' must not be less than ${EVERYTHING_KEEP_RECENT}. For the most aggressive pruning, select pruning = "everything"`;

/** Go `cast.ToUint64` on an already-numeric value: negatives and non-finite values read as 0, fractions truncate. */
const toUint = (n: number | undefined): number =>
  n === undefined || !Number.isFinite(n) || n <= 0 ? 0 : Math.trunc(n);

/**
 * Builds pruning options from the app.toml `pruning` value (lower-cased; empty means `default`). keepRecent and
 * interval are read only for `custom`, which is validated in the reference order (interval = 0, interval < 10,
 * keep-recent < 2), each message prefixed `invalid custom pruning options: `.
 */
export function pruningOptions(
  strategy: string,
  keepRecent?: number,
  interval?: number,
): Result<PruningOptions, PlainError> {
  const s = strategy.toLowerCase();
  switch (s) {
    case "":
    case "default":
      return ok(PRUNE_DEFAULT);
    case "nothing":
      return ok(PRUNE_NOTHING);
    case "everything":
      return ok(PRUNE_EVERYTHING);
    case "custom": {
      const opts: PruningOptions = { strategy: "custom", keepRecent: toUint(keepRecent), interval: toUint(interval) };
      const invalid = validateCustom(opts);
      return invalid === undefined ? ok(opts) : err(plain(CUSTOM_PREFIX + invalid));
    }
    default:
      return err(plain(`unknown pruning strategy ${s}`));
  }
}

function validateCustom(o: PruningOptions): string | undefined {
  if (o.interval === 0) return ERR_PRUNING_INTERVAL_ZERO;
  if (o.interval < EVERYTHING_INTERVAL) return ERR_PRUNING_INTERVAL_TOO_SMALL;
  if (o.keepRecent < EVERYTHING_KEEP_RECENT) return ERR_PRUNING_KEEP_RECENT_TOO_SMALL;
  return undefined;
}

/**
 * True when the commit of `height` prunes (reference pruning manager): the strategy is not `nothing`,
 * height mod interval = 0 and height > keepRecent. It then deletes every version <= height - 1 - keepRecent.
 */
export function prunesAt(height: number, opts: PruningOptions): boolean {
  return opts.strategy !== "nothing" && opts.interval > 0 && height % opts.interval === 0 && height > opts.keepRecent;
}

/**
 * The earliest version still retained once `latest` is committed: with P the largest multiple of interval such
 * that keepRecent < P <= latest, it is max(initialVersion, P - keepRecent); without such P (or with `nothing`)
 * it is initialVersion. Queryable versions are [earliestRetained, latest].
 */
export function earliestRetained(latest: number, opts: PruningOptions, initialVersion = 1): number {
  if (opts.strategy === "nothing" || opts.interval <= 0 || latest < initialVersion) return initialVersion;
  const p = Math.floor(latest / opts.interval) * opts.interval;
  if (p <= opts.keepRecent) return initialVersion;
  return Math.max(initialVersion, p - opts.keepRecent);
}
