/**
 * Reading fields of a node's JSON answers in the reference's shapes (docs/profile-format.md): integers as decimal
 * strings, hashes as upper-case hex, times as RFC 3339 with up to nanoseconds. A missing or mistyped field is a
 * `malformed` failure naming the endpoint and the field's path.
 */
import { parseRfc3339 } from "../core/go/time.js";
import { fail, type Json } from "./reader.js";

export type Obj = Record<string, Json>;

const isObject = (v: Json): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The answer of one endpoint, read field by field. */
export class Answer {
  constructor(
    readonly endpoint: string,
    readonly value: Obj,
    readonly path = "",
  ) {}

  #bad(key: string, want: string, got: Json): never {
    const shown = got === undefined ? "nothing" : JSON.stringify(got).slice(0, 60);
    return fail("malformed", this.endpoint, `${this.path}${key}: expected ${want}, got ${shown}`);
  }

  has(key: string): boolean {
    return this.value[key] !== undefined && this.value[key] !== null;
  }

  obj(key: string): Answer {
    const v = this.value[key];
    return isObject(v) ? new Answer(this.endpoint, v, `${this.path}${key}.`) : this.#bad(key, "an object", v);
  }

  list(key: string): Answer[] {
    const v = this.value[key];
    if (v === null) return [];
    if (!Array.isArray(v)) return this.#bad(key, "a list", v);
    return v.map((item, i) =>
      isObject(item)
        ? new Answer(this.endpoint, item, `${this.path}${key}[${i}].`)
        : this.#bad(`${key}[${i}]`, "an object", item),
    );
  }

  str(key: string): string {
    const v = this.value[key];
    return typeof v === "string" ? v : this.#bad(key, "a string", v);
  }

  optStr(key: string): string | undefined {
    const v = this.value[key];
    return v === undefined || v === null ? undefined : this.str(key);
  }

  bool(key: string): boolean {
    const v = this.value[key];
    return typeof v === "boolean" ? v : this.#bad(key, "a boolean", v);
  }

  /** An int64 as CometBFT and the gateway write it: a decimal string (a bare number is accepted too). */
  int(key: string): number {
    const v = this.value[key];
    const text = typeof v === "number" ? String(v) : v;
    if (typeof text !== "string" || !/^-?[0-9]{1,16}$/.test(text) || !Number.isSafeInteger(Number(text)))
      return this.#bad(key, "an integer as a decimal string", v);
    return Number(text);
  }

  /** An RFC 3339 time, in Unix ms (fractions below a millisecond truncated). */
  timeMs(key: string): number {
    const text = this.str(key);
    const t = parseRfc3339(text);
    return t.ok ? t.value : this.#bad(key, "an RFC 3339 time", text);
  }
}
