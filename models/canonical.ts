/**
 * Canonical JSON: object keys sorted, bigints written as decimal strings. Two values that are equal as data give
 * the same text, whatever the insertion order of their keys.
 *
 * `canonicalJsonReference` defines it: JSON.stringify with a replacer that writes bigints as strings and rebuilds
 * each object from its sorted entries. `canonicalJson` writes the same text directly for plain data (the oracle's
 * states: objects, arrays, strings, numbers, booleans, null, bigints, undefined) without the rebuilt objects, and
 * hands anything else to the reference: an object with `toJSON`, an array-index key (the rebuilt object would put
 * it first), a `__proto__` key, a top-level value JSON.stringify does not write, nesting past `DEPTH_MAX` (a cycle
 * among them). `canonical.test.ts` holds the two equal on arbitrary values.
 */
export function canonicalJson(value: unknown): string {
  return plainJson(value, DEPTH_MAX) ?? canonicalJsonReference(value);
}

export function canonicalJsonReference(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === "bigint") return v.toString();
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return Object.fromEntries(entries);
    }
    return v;
  });
}

/** The oracle's states nest a few levels; deeper values (or cycles) go to the reference. */
const DEPTH_MAX = 64;

/** A member JSON.stringify leaves out of an object (and writes as null in an array). */
const OMITTED = Symbol("omitted");

/** An array index as a property key ("0", "17"; not "01" or "-1"), which Object.fromEntries would order first. */
const isIndexKey = (k: string): boolean =>
  k.length > 0 && k.length <= 10 && String(Number(k) >>> 0) === k && k !== "4294967295";

/** The text of `v`, OMITTED for what JSON leaves out, undefined for anything the fast path does not take. */
function member(v: unknown, depth: number): string | typeof OMITTED | undefined {
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "number":
      return Number.isFinite(v) ? String(v) : "null";
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return typeof (v as { toJSON?: unknown }).toJSON === "function" ? undefined : `"${v.toString()}"`;
    case "undefined":
    case "function":
    case "symbol":
      return OMITTED;
    default:
      if (v === null) return "null";
      if (depth <= 0 || typeof (v as { toJSON?: unknown }).toJSON === "function") return undefined;
      return Array.isArray(v) ? arrayJson(v, depth - 1) : objectJson(v as Record<string, unknown>, depth - 1);
  }
}

function arrayJson(a: readonly unknown[], depth: number): string | undefined {
  let out = "[";
  for (let i = 0; i < a.length; i++) {
    const t = member(a[i], depth);
    if (t === undefined) return undefined;
    out += `${i === 0 ? "" : ","}${t === OMITTED ? "null" : t}`;
  }
  return `${out}]`;
}

function objectJson(o: Record<string, unknown>, depth: number): string | undefined {
  const keys = Object.keys(o).sort();
  let out = "{";
  let first = true;
  for (const k of keys) {
    if (k === "__proto__" || isIndexKey(k)) return undefined;
    const t = member(o[k], depth);
    if (t === undefined) return undefined;
    if (t === OMITTED) continue;
    out += `${first ? "" : ","}${JSON.stringify(k)}:${t}`;
    first = false;
  }
  return `${out}}`;
}

function plainJson(value: unknown, depth: number): string | undefined {
  const t = member(value, depth);
  return t === OMITTED ? undefined : t;
}
