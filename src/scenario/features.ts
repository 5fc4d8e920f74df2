/**
 * Format features that are parsed but not yet runnable. One flag per feature, in this one place.
 */

/**
 * `query` steps run REST queries against a node (node-api.md). Until the node API exists the loader rejects them
 * with `QUERY_UNAVAILABLE_MESSAGE`; set to true when it does.
 */
export const QUERY_ACTIONS_AVAILABLE = true;

export const QUERY_UNAVAILABLE_MESSAGE = "query actions need the node API, which is not available yet";
