/**
 * The JSON Schema (draft 2020-12) of scenario files, generated from the zod schemas in `schema.ts`, for editors
 * (`# yaml-language-server: $schema=./schema.json`, or `"$schema"` in JSON files). It describes the shape; checks
 * it cannot express (Go duration values, coin amounts, references) are only in the loader.
 * `scenarios/schema.json` is this output; a test keeps it current.
 */
import { z } from "zod";
import { ScenarioSchema } from "./schema.js";

export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ScenarioSchema, { target: "draft-2020-12", io: "input", unrepresentable: "throw" });
}

/** The exact text of `scenarios/schema.json`: two-space indented, newline-terminated. */
export const scenarioJsonSchemaText = (): string => `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`;
