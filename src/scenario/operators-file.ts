import { z } from "zod";
import type { OperatorConfig } from "../app/operator.js";
import { err, ok, type Result } from "../core/errors.js";
import { bindIssues, type ScenarioError } from "./errors.js";
import { flattenIssues, scenarioErrorMap } from "./issues.js";
import { type OperatorDocument, OperatorSchema } from "./operator-schema.js";
import { resolveOperator } from "./resolve-operator.js";
import { NESTING_DEPTH_MAX, nestedDeeperThan, parseSource, TOO_DEEP_MESSAGE } from "./source.js";

/**
 * An operators file (`explore halt-recovery --operators FILE`, docs/scenario-format.md §2.4): the `operator` blocks of
 * a population, by validator, with `default` for every validator, exactly as a scenario's `nodes.<name>.operator`.
 *
 * ```yaml
 * operators:
 *   default: { cosmovisor: { backup: { dataSizeGiB: 300, throughputMiBPerS: 100 } }, manual: { reaction: 30m } }
 *   val3: { cosmovisor: false }
 * ```
 *
 * Errors name the file and the key, as a scenario's do. Never throws.
 */
const OperatorsFileSchema = z.strictObject({
  $schema: z.optional(z.string()),
  operators: z.record(z.string().min(1), OperatorSchema),
});

export type OperatorsFile = ReadonlyMap<string, OperatorDocument>;

export function parseOperatorsFile(fileName: string, text: string): Result<OperatorsFile, ScenarioError[]> {
  const source = parseSource(fileName, text);
  if (!source.ok) return source;
  const data = source.value.data;
  if (nestedDeeperThan(data, NESTING_DEPTH_MAX)) return err([{ file: fileName, path: "", message: TOO_DEEP_MESSAGE }]);
  const shape = OperatorsFileSchema.safeParse(data, { reportInput: true, error: scenarioErrorMap });
  if (!shape.success) return err(bindIssues(fileName, data, flattenIssues(shape.error.issues), source.value.position));
  return ok(new Map(Object.entries(shape.data.operators)));
}

/** The operator of validator `name` under the file (`default` merged under its own entry). */
export const operatorFromFile = (
  file: OperatorsFile,
  name: string,
  binaries: ReadonlyMap<string, string>,
): OperatorConfig | undefined => resolveOperator(file.get("default"), file.get(name), binaries);
