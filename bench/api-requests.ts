/** The requests bench/api.bench.ts times and bench/api-server.ts answers (shared so that both agree). */

/** Cached: the same two requests over and over, which the gateway's response cache answers after the first two. */
export const CACHED_REQUESTS = [
  { bench: "current_plan", path: "/chain/upgrade/v1beta1/current_plan", height: "20" },
  { bench: "module_versions", path: "/chain/upgrade/v1beta1/module_versions", height: "29" },
] as const;

/**
 * Uncached: each route at heights FIRST..UNCACHED_HEIGHTS in turn. The gateway's response cache holds 1,024 entries
 * and evicts the oldest first, so a cycle over more distinct requests than that never finds its answer there (and,
 * since an answer is stored only at its second miss within 1,024 misses, never stores one either).
 * The fixture (query-upgrade-history run to UNCACHED_HEIGHTS) applies upgrade v2 at 30, so module_versions reads
 * two versions of its store; proposal 1 exists from height 2 (submitted then, passed at its voting period's end), so
 * the proposals list is empty at height 1 and holds it after; val1's balance changes with its deposit and fees.
 */
export const UNCACHED_HEIGHTS = 1500;
export const UNCACHED_ROUTES = [
  { bench: "uncached_module_versions", path: "/chain/upgrade/v1beta1/module_versions", first: 1 },
  { bench: "uncached_gov_proposal", path: "/chain/gov/v1/proposals/1", first: 2 },
  { bench: "uncached_gov_proposals", path: "/chain/gov/v1/proposals", first: 1 },
  { bench: "uncached_bank_balances", path: "/chain/bank/v1beta1/balances/{val1}", first: 1 },
] as const;

/** On the bare server: the server process's `process.cpuUsage()`, read around each measurement. */
export const CPU_PATH = "/__cpu";
