import { err, ok, type Result } from "../../core/errors.js";
import type { RpcEvent } from "./source.js";

/**
 * The subset of CometBFT's event query language that tx_search serves: conditions joined by `AND`, each
 * `<key> <op> <value>` with op one of `=`, `<`, `<=`, `>`, `>=`, `CONTAINS`, or `<key> EXISTS`. Values are
 * single-quoted strings or numbers. Keys are `tx.height`, `tx.hash` or `<event type>.<attribute key>` of an indexed
 * attribute (`message.action='/chain.gov.v1.MsgVote'`). At most 16 conditions.
 */
export type Op = "=" | "<" | "<=" | ">" | ">=" | "CONTAINS" | "EXISTS";

export interface Condition {
  readonly key: string;
  readonly op: Op;
  readonly value: string;
  readonly numeric: boolean;
}

const MAX_CONDITIONS = 16;
const COND =
  /^([A-Za-z0-9_][A-Za-z0-9_.\-/]*)\s*(?:(<=|>=|=|<|>|CONTAINS)\s*(?:'([^']*)'|(-?[0-9]+(?:\.[0-9]+)?))|\s+(EXISTS))$/;

export function parseQuery(text: string): Result<readonly Condition[], string> {
  const parts = text.trim().split(/\s+AND\s+/);
  if (text.trim() === "") return err("query cannot be empty");
  if (parts.length > MAX_CONDITIONS) return err(`too many conditions: at most ${MAX_CONDITIONS}`);
  const out: Condition[] = [];
  for (const p of parts) {
    const m = COND.exec(p.trim());
    if (m === null) return err(`failed to parse query: unexpected condition ${JSON.stringify(p.trim())}`);
    if (m[5] === "EXISTS") out.push({ key: m[1]!, op: "EXISTS", value: "", numeric: false });
    else out.push({ key: m[1]!, op: m[2] as Op, value: m[3] ?? m[4]!, numeric: m[4] !== undefined });
  }
  return ok(out);
}

function compare(actual: string, c: Condition): boolean {
  switch (c.op) {
    case "EXISTS":
      return true;
    case "CONTAINS":
      return actual.includes(c.value);
    case "=":
      return c.numeric ? Number(actual) === Number(c.value) : actual === c.value;
    default: {
      const a = Number(actual);
      const b = Number(c.value);
      if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
      return c.op === "<" ? a < b : c.op === "<=" ? a <= b : c.op === ">" ? a > b : a >= b;
    }
  }
}

/** Whether a tx (its height, hash and events) satisfies every condition. */
export function matches(
  conds: readonly Condition[],
  tx: { readonly height: number; readonly hash: string; readonly events: readonly RpcEvent[] },
): boolean {
  return conds.every((c) => {
    if (c.key === "tx.height") return compare(String(tx.height), c);
    if (c.key === "tx.hash") return compare(tx.hash, c);
    return tx.events.some((e) =>
      e.attributes.some((a) => a.index && `${e.type}.${a.key}` === c.key && compare(a.value, c)),
    );
  });
}

/** The height range the conditions on `tx.height` allow (to bound the scan). */
export function heightRange(conds: readonly Condition[], lo: number, hi: number): [number, number] {
  let min = lo;
  let max = hi;
  for (const c of conds) {
    if (c.key !== "tx.height" || !c.numeric) continue;
    const v = Number(c.value);
    if (c.op === "=") {
      min = Math.max(min, Math.ceil(v));
      max = Math.min(max, Math.floor(v));
    } else if (c.op === ">") min = Math.max(min, Math.floor(v) + 1);
    else if (c.op === ">=") min = Math.max(min, Math.ceil(v));
    else if (c.op === "<") max = Math.min(max, Math.ceil(v) - 1);
    else if (c.op === "<=") max = Math.min(max, Math.floor(v));
  }
  return [min, max];
}
