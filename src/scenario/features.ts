/**
 * Format features that are parsed but not yet runnable. One flag per feature, in this one place.
 */

/**
 * `query` steps run REST queries against a node (docs/node-api.md) through the gateway's request pipeline in-process.
 * While false the loader rejects them with `QUERY_UNAVAILABLE_MESSAGE`.
 */
export const QUERY_ACTIONS_AVAILABLE = true;

export const QUERY_UNAVAILABLE_MESSAGE = "query actions need the node API, which is not available yet";
