import { inProcessQuery } from "../api/in-process.js";
import { nodeBackend } from "../api/node-backend.js";
import type { NodeState } from "../app/node-process.js";
import type { ChainEngine } from "../chain/engine.js";
import type { Failure } from "./failure.js";
import type { Action, ValidatorModel } from "./model.js";

export type QueryAction = Extract<Action, { kind: "query" }>;

/** JSON equality: objects compare by key set (order ignored), arrays by position. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && jsonEqual((a as Record<string, unknown>)[k], rb[k]));
}

/** The response body as JSON, or the text itself when it is not JSON (e.g. Go's `400 Bad Request`). */
function bodyValue(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Runs a `query` step (docs/scenario-format.md §2) against the node's state at this point of the simulation, through the same
 * gateway pipeline `chainsim serve` uses over HTTP (`height` becomes the `x-chain-block-height` header). The
 * failure, if any, is at `at` and compares `{status, body}` (body only when the step gives one; JSON deep-equal).
 */
export function queryFailure(
  sim: ChainEngine<NodeState>,
  a: QueryAction,
  at: string,
  validators: readonly ValidatorModel[],
): Failure | undefined {
  const backend = nodeBackend(sim, a.node, { validators });
  if (!backend.ok) return { at: `${at}.node`, expected: a.node, actual: backend.error.message };
  const res = inProcessQuery(backend.value, {
    path: a.path,
    ...(a.height === undefined ? {} : { height: a.height }),
    headers: a.headers,
  });
  if (!res.ok) return { at, expected: { status: a.expect.status }, actual: res.error };
  const body = bodyValue(res.value.body);
  const statusOk = res.value.status === a.expect.status;
  const bodyOk = a.expect.body === undefined || jsonEqual(body, a.expect.body);
  if (statusOk && bodyOk) return undefined;
  return {
    at,
    expected:
      a.expect.body === undefined ? { status: a.expect.status } : { status: a.expect.status, body: a.expect.body },
    actual: { status: res.value.status, body },
  };
}
