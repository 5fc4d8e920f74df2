/**
 * `sameJson(a, b)`: true only when JSON.stringify (bigints written as strings) gives the same text for both, found
 * without writing it: equal primitives (===), arrays of the same length with items the same, and plain objects
 * (prototype Object or null, no toJSON) with the same keys in the same order and values the same. False is not
 * "different": anything else (NaN, a bigint against its string, an undefined member, a Date, a Map, a boxed value,
 * nesting past `depth`) answers false, and the caller compares the texts. For checks that compare every command and
 * almost always agree.
 */
export function sameJson(a: unknown, b: unknown, depth = SAME_JSON_DEPTH_MAX): boolean {
  if (a === b) return typeof a !== "object" || a === null;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || depth <= 0) return false;
  if (Array.isArray(a)) return Array.isArray(b) && sameArray(a, b, depth - 1);
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  return sameObject(a as Record<string, unknown>, b as Record<string, unknown>, depth - 1);
}

const SAME_JSON_DEPTH_MAX = 32;

/**
 * Whether `text` writes the same JSON for both: sameJson's answer when it is true, else the two texts compared. For
 * a check comparing values that almost always agree; `text` is the check's own writer (the text it reports).
 */
export function jsonEqual(a: unknown, b: unknown, text: (v: unknown) => string): boolean {
  return sameJson(a, b) || text(a) === text(b);
}

function isPlain(o: object): boolean {
  const proto = Object.getPrototypeOf(o);
  return (proto === Object.prototype || proto === null) && typeof (o as { toJSON?: unknown }).toJSON !== "function";
}

function sameArray(a: readonly unknown[], b: readonly unknown[], depth: number): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i], depth)) return false;
  return true;
}

function sameObject(a: Record<string, unknown>, b: Record<string, unknown>, depth: number): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i] || a[k] === undefined || !sameJson(a[k], b[k], depth)) return false;
  }
  return true;
}
