/** The requests bench/api.bench.ts times and bench/api-server.ts answers (shared so that both agree). */

/** Cached: the same two requests over and over, which the gateway's response cache answers after the first. */
export const CACHED_REQUESTS = [
  { bench: "current_plan", path: "/chain/upgrade/v1beta1/current_plan", height: "20" },
  { bench: "module_versions", path: "/chain/upgrade/v1beta1/module_versions", height: "29" },
] as const;

/**
 * Uncached: `module_versions` at heights 1..UNCACHED_HEIGHTS in turn. The gateway's response cache holds 1,024
 * entries and evicts the oldest first, so a cycle over more distinct requests than that never finds its answer there.
 */
export const UNCACHED_HEIGHTS = 1500;
export const UNCACHED_PATH = "/chain/upgrade/v1beta1/module_versions";
