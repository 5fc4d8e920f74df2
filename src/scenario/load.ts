/**
 * Loading a scenario: text → syntax (YAML or JSON) → shape (zod) and references → resolved model.
 *
 * Contract: every error of the shape and reference passes is returned at once, in document order, each as
 * `{file, path, message}` (one line when rendered with `formatScenarioError`). A syntax error stops before the
 * shape pass. Nothing throws for bad input: data nested deeper than `NESTING_DEPTH_MAX` is one error before any pass
 * walks it, and at most `REPORTED_ERRORS_MAX` (errors.ts) errors are listed, the last line counting the rest.
 */

import { DEFAULT_BECH32_PREFIX } from "../core/address.js";
import { err, ok, type Result } from "../core/errors.js";
import { checkReferences } from "./checks.js";
import { bindIssues, type ScenarioError } from "./errors.js";
import { fromIssues, importedLabels, type ProfileReader, readFromProfile, startOf, withProfileChain } from "./from.js";
import { flattenIssues, scenarioErrorMap } from "./issues.js";
import type { Scenario } from "./model.js";
import { resolveScenario } from "./resolve.js";
import { ScenarioSchema } from "./schema.js";
import { NESTING_DEPTH_MAX, nestedDeeperThan, type ParsedSource, parseSource, TOO_DEEP_MESSAGE } from "./source.js";

/**
 * Parses and validates a scenario file's text; `fileName`'s extension selects YAML or JSON. A scenario `from:` a
 * profile reads it with `readProfile` (the edge's file system; from.ts), else that is an error. `overrides` replace
 * keys of the file before validation (`chainsim serve --bech32-prefix`).
 */
export function parseScenario(
  fileName: string,
  text: string,
  readProfile?: ProfileReader,
  overrides: ScenarioOverrides = {},
): Result<Scenario, ScenarioError[]> {
  const source = parseSource(fileName, text);
  if (!source.ok) return source;
  const data =
    overrides.bech32Prefix === undefined ? source.value.data : withPrefix(source.value.data, overrides.bech32Prefix);
  return scenarioFromData(fileName, data, source.value.position, readProfile);
}

/** Settings a command gives over a scenario file's own. */
export interface ScenarioOverrides {
  /** `chain.bech32Prefix`. */
  readonly bech32Prefix?: string;
}

function withPrefix(data: unknown, bech32Prefix: string): unknown {
  if (!isRecord(data)) return data;
  return { ...data, chain: { ...(isRecord(data.chain) ? data.chain : {}), bech32Prefix } };
}

/**
 * Validates already-parsed data (e.g. a document the property harness built) and resolves it. `position` locates
 * errors in a source, when there is one.
 */
export function scenarioFromData(
  fileName: string,
  data: unknown,
  position?: ParsedSource["position"],
  readProfile?: ProfileReader,
): Result<Scenario, ScenarioError[]> {
  if (nestedDeeperThan(data, NESTING_DEPTH_MAX)) return err([{ file: fileName, path: "", message: TOO_DEEP_MESSAGE }]);
  const from = readFromProfile(fileName, data, readProfile);
  if (!from.ok) return from;
  const merged = from.value === undefined || !isRecord(data) ? data : withProfileChain(data, from.value);
  const shape = ScenarioSchema.safeParse(merged, { reportInput: true, error: scenarioErrorMap });
  const issues = [
    ...(shape.success ? [] : flattenIssues(shape.error.issues)),
    ...checkReferences(merged, importedLabels(from.value)),
    ...(from.value === undefined || !isRecord(data) ? [] : fromIssues(data, from.value)),
  ];
  if (!shape.success || issues.length > 0) return err(bindIssues(fileName, merged, issues, position));
  return ok(
    resolveScenario(
      fileName,
      shape.data,
      from.value === undefined
        ? undefined
        : startOf(from.value, shape.data.chain?.bech32Prefix ?? DEFAULT_BECH32_PREFIX),
    ),
  );
}

const isRecord = (v: unknown): v is Readonly<Record<string, unknown>> =>
  v !== null && typeof v === "object" && !Array.isArray(v);
