/**
 * From zod issues to path-addressed scenario errors with plain messages.
 *
 * - `scenarioErrorMap` gives the default message of each zod issue kind (schemas may override with their own
 *   `error`); it is passed per parse, so it never changes zod's global configuration.
 * - `flattenIssues` splits "unrecognized keys" into one error per key (at the key's own path) and, for a union
 *   whose input matched exactly one alternative's type (e.g. an object where `false | {height}` is allowed),
 *   reports that alternative's precise errors instead of a generic "no alternative matched".
 */
import type { z } from "zod";
import { type DocPath, type PathIssue, quoteValue } from "./errors.js";
import { describeValue } from "./schema.js";

type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue;

const quoted = quoteValue;

const EXPECTED_NAMES: Readonly<Record<string, string>> = {
  string: "a string",
  // Every number in the format is an integer (z.int()); zod reports a non-number input there as "number".
  number: "an integer",
  int: "an integer",
  boolean: "true or false",
  object: "a map",
  record: "a map",
  array: "a list",
  null: "null",
};

const bound = (iss: { inclusive?: boolean | undefined }, incl: string, excl: string): string =>
  iss.inclusive === false ? excl : incl;

function tooSmall(iss: Extract<RawIssue, { code: "too_small" }>): string {
  const min = Number(iss.minimum);
  if (iss.origin === "string") return min <= 1 ? "must not be empty" : `must be at least ${min} characters`;
  if (iss.origin === "array" || iss.origin === "set") return `must have at least ${min} item${min === 1 ? "" : "s"}`;
  return `must be ${bound(iss, "≥", ">")} ${min}, got ${String(iss.input)}`;
}

function tooBig(iss: Extract<RawIssue, { code: "too_big" }>): string {
  const max = Number(iss.maximum);
  if (iss.origin === "string") return `must be at most ${max} characters`;
  if (iss.origin === "array" || iss.origin === "set") return `must have at most ${max} item${max === 1 ? "" : "s"}`;
  return `must be ${bound(iss, "≤", "<")} ${max}, got ${String(iss.input)}`;
}

/** Default messages for every zod issue kind; returns plain English with the offending value. */
export function scenarioErrorMap(iss: RawIssue): string {
  if (iss.input === undefined && iss.code !== "custom") return "required key is missing";
  switch (iss.code) {
    case "invalid_type":
      return `expected ${EXPECTED_NAMES[iss.expected] ?? iss.expected}, got ${describeValue(iss.input)}`;
    case "too_small":
      return tooSmall(iss);
    case "too_big":
      return tooBig(iss);
    case "invalid_value": {
      const values = iss.values.map((v) => quoted(v));
      const expected = values.length === 1 ? values[0] : `one of ${values.join(", ")}`;
      return `expected ${expected}, got ${describeValue(iss.input)}`;
    }
    case "invalid_format":
      return `invalid format, got ${describeValue(iss.input)}`;
    case "invalid_key":
      return `invalid key ${quoted(iss.input)}: ${iss.issues.map((i) => i.message).join("; ")}`;
    case "invalid_union":
      return `does not match any allowed form, got ${describeValue(iss.input)}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(iss.divisor)}`;
    case "unrecognized_keys":
      return `unknown keys ${iss.keys.map((k) => quoted(k)).join(", ")}`;
    default:
      return iss.message ?? "invalid value";
  }
}

/** True when an alternative of a union rejected the input's type itself (not something inside it). */
const rejectsType = (branch: readonly Issue[]): boolean =>
  branch.some(
    (i) =>
      i.path.length === 0 && (i.code === "invalid_type" || i.code === "invalid_value" || i.code === "invalid_union"),
  );

/** zod issues → path issues, with `base` prefixed to every path. */
export function flattenIssues(issues: readonly Issue[], base: DocPath = []): PathIssue[] {
  const out: PathIssue[] = [];
  for (const issue of issues) {
    const path: DocPath = [...base, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: [...path, key], message: `unknown key ${quoted(key)}` });
    } else if (issue.code === "invalid_union") {
      const typed = issue.errors.filter((branch) => !rejectsType(branch));
      const only = typed.length === 1 ? typed[0] : undefined;
      if (only !== undefined) out.push(...flattenIssues(only, path));
      else out.push({ path, message: issue.message });
    } else {
      out.push({ path, message: issue.message });
    }
  }
  return out;
}
