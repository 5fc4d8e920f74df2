/**
 * Writing a scenario document (the input shape, not the resolved model) as YAML that the loader reads back to the
 * same document: the property harness writes counterexamples with it.
 *
 * Contract: `parseScenario(f, scenarioToYaml(doc))` yields the same data as `doc` (keys with `undefined` values are
 * dropped). Top-level keys and step keys are written in the format's canonical order (label, trigger, delay,
 * action); other maps keep their order. No anchors, no line folding; strings that would read as another type are
 * quoted by the YAML writer.
 */
import { Document } from "yaml";
import { type ScenarioDocument, ScenarioSchema, StepSchema } from "./schema.js";

const TOP_LEVEL_ORDER = Object.keys(ScenarioSchema.shape);
const STEP_ORDER = Object.keys(StepSchema.shape);

function ordered(value: Readonly<Record<string, unknown>>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (const k of [...order.filter((k) => keys.includes(k)), ...keys.filter((k) => !order.includes(k))]) {
    if (value[k] !== undefined) out[k] = value[k];
  }
  return out;
}

export interface SerializeOptions {
  /** Written as `#` comment lines before the document (e.g. the seed and path of a counterexample). */
  readonly header?: string;
}

export function scenarioToYaml(doc: ScenarioDocument, options: SerializeOptions = {}): string {
  const data = ordered(doc, TOP_LEVEL_ORDER);
  if (Array.isArray(doc.steps)) data.steps = doc.steps.map((s) => ordered(s, STEP_ORDER));
  const yaml = new Document(data, { aliasDuplicateObjects: false, version: "1.2" });
  if (options.header !== undefined) {
    yaml.commentBefore = options.header
      .split("\n")
      .map((line) => (line === "" ? "" : ` ${line}`))
      .join("\n");
  }
  return yaml.toString({ lineWidth: 0, minContentWidth: 0, indent: 2 });
}
