/**
 * Wilson score interval for a binomial proportion (Wilson 1927): the interval of true proportions p for which the
 * observed k of n is within z standard errors, sqrt(p(1-p)/n). Unlike the normal ("Wald") interval it stays inside
 * [0, 1] and is not degenerate at k = 0 or k = n, which is exactly where a "did the cancel land" estimate sits.
 */

/** z for a two-sided 95% interval (the 0.975 quantile of the standard normal). */
export const Z_95 = 1.959963984540054;

export interface Proportion {
  readonly successes: number;
  readonly trials: number;
  /** k / n (0 when n = 0). */
  readonly p: number;
  readonly lo: number;
  readonly hi: number;
}

/** The Wilson interval of k successes in n trials; n = 0 gives the uninformative [0, 1]. */
export function wilson(successes: number, trials: number, z: number = Z_95): Proportion {
  if (trials <= 0) return { successes, trials, p: 0, lo: 0, hi: 1 };
  const n = trials;
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At k = 0 and k = n the bounds are exactly 0 and 1; the formula gives them only up to rounding.
  const lo = successes === 0 ? 0 : Math.max(0, centre - half);
  const hi = successes === n ? 1 : Math.min(1, centre + half);
  return { successes, trials: n, p, lo, hi };
}

/**
 * The fewest trials for which `n` successes out of `n` give a Wilson lower bound of at least `target` (the best
 * any run count can show): n / (n + z²) ≥ target ⇔ n ≥ z² · target / (1 − target).
 */
export function trialsNeededForLowerBound(target: number, z: number = Z_95): number {
  if (target <= 0) return 1;
  if (target >= 1) return Number.POSITIVE_INFINITY;
  let n = Math.max(1, Math.ceil((z * z * target) / (1 - target)));
  // Guard the ceiling against floating-point error on either side.
  while (n > 1 && wilson(n - 1, n - 1, z).lo >= target) n--;
  while (wilson(n, n, z).lo < target) n++;
  return n;
}
