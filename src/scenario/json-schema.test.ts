import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HALT_KINDS } from "../upgrade/halt.js";
import { scenarioJsonSchema, scenarioJsonSchemaText } from "./json-schema.js";

type Json = Record<string, unknown>;

/** Every object schema with properties, wherever it is nested. */
function objectSchemas(node: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(node)) for (const n of node) objectSchemas(n, out);
  else if (node !== null && typeof node === "object") {
    const o = node as Json;
    if (o.type === "object" && o.properties !== undefined) out.push(o);
    for (const v of Object.values(o)) objectSchemas(v, out);
  }
  return out;
}

describe("scenario JSON Schema", () => {
  it("matches the committed scenarios/schema.json (`npm run gen:schema` when the format changes)", () => {
    const committed = readFileSync(new URL("../../scenarios/schema.json", import.meta.url), "utf8");
    expect(committed).toBe(scenarioJsonSchemaText());
  });

  it("is draft 2020-12 and closed: no object schema allows unknown keys", () => {
    const schema = scenarioJsonSchema();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.required).toEqual(["name", "binaries"]);
    const objects = objectSchemas(schema);
    expect(objects.length).toBeGreaterThan(20);
    for (const o of objects) expect(o.additionalProperties).toBe(false);
  });

  it("states one trigger and one action per step, and the closed halt kinds", () => {
    const text = scenarioJsonSchemaText();
    const schema = scenarioJsonSchema() as { properties: { steps: { items: Json } } };
    const step = schema.properties.steps.items;
    expect(step.allOf).toEqual([
      { oneOf: [{ required: ["at"] }, { required: ["on"] }] },
      {
        oneOf: [
          "submitProposal",
          "deposit",
          "vote",
          "cancelProposal",
          "tx",
          "authorityExec",
          "swapBinary",
          "restart",
          "stop",
          "writeUpgradeInfo",
          "query",
          "expect",
        ].map((k) => ({ required: [k] })),
      },
    ]);
    expect(text).toContain(JSON.stringify(HALT_KINDS, null, 2).slice(1, -1).trim().split("\n")[0]);
    expect((scenarioJsonSchema().$defs as Json).Expectations).toBeDefined();
  });
});
