import { type DescField, type DescMessage, ScalarType } from "@bufbuild/protobuf";
import { stringify } from "yaml";
import type { Namespace } from "../../core/namespace.js";
import type { Route } from "./routes.js";
import { swaggerPath } from "./template.js";

/**
 * The Swagger 2.0 document of the REST routes (docs/node-api.md §3), generated from the same descriptors as the routes:
 * inline schemas for responses, path parameters and (for methods that read the query) flattened query parameters,
 * `deprecated` from the method option. Summaries are proto comments, which the generated descriptors do not carry,
 * so they come from `METHOD_DOCS` (keyed by full method name without the namespace's word; default: the method
 * name). The title names the namespace (`Chain SDK`, `Cosmos SDK`, as the reference's).
 */
export const METHOD_DOCS: Readonly<Record<string, string>> = {
  "upgrade.v1beta1.Query.CurrentPlan": "CurrentPlan queries the current upgrade plan.",
  "upgrade.v1beta1.Query.AppliedPlan": "AppliedPlan queries a previously applied upgrade plan by its name.",
  "upgrade.v1beta1.Query.UpgradedConsensusState":
    "UpgradedConsensusState queries the consensus state that will serve as a trusted kernel for the next version of this chain. It will only be stored at the last height of this chain. This rpc is deprecated now that IBC has its own replacement.",
  "upgrade.v1beta1.Query.ModuleVersions": "ModuleVersions queries the list of module versions from state.",
  "upgrade.v1beta1.Query.Authority": "Returns the account with authority to conduct upgrades",
  "base.tendermint.v1beta1.Service.GetNodeInfo": "GetNodeInfo queries the current node info.",
  "base.tendermint.v1beta1.Service.GetSyncing": "GetSyncing queries node syncing.",
  "base.tendermint.v1beta1.Service.GetLatestBlock": "GetLatestBlock returns the latest block.",
  "base.tendermint.v1beta1.Service.GetBlockByHeight": "GetBlockByHeight queries block for given height.",
};

/** The document's title in a namespace: the reference's `Cosmos SDK - gRPC Gateway docs`, `Chain SDK` for `chain`. */
export const swaggerTitle = (ns: Namespace): string => `${ns[0]!.toUpperCase()}${ns.slice(1)} SDK - gRPC Gateway docs`;
export const SWAGGER_DESCRIPTION = "A REST interface for state queries.";

type Schema = Record<string, unknown>;

const ERROR_SCHEMA: Schema = {
  type: "object",
  properties: {
    error: { type: "string" },
    code: { type: "integer", format: "int32" },
    message: { type: "string" },
    details: {
      type: "array",
      items: {
        type: "object",
        properties: { type_url: { type: "string" }, value: { type: "string", format: "byte" } },
      },
    },
  },
};

function scalarSchema(t: ScalarType): Schema {
  switch (t) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.BYTES:
      return { type: "string", format: "byte" };
    case ScalarType.DOUBLE:
      return { type: "number", format: "double" };
    case ScalarType.FLOAT:
      return { type: "number", format: "float" };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", format: "int64" };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: "string", format: "uint64" };
    default:
      return { type: "string", format: "int64" };
  }
}

function messageSchema(desc: DescMessage, seen: readonly string[]): Schema {
  switch (desc.typeName) {
    case "google.protobuf.Timestamp":
      return { type: "string", format: "date-time" };
    case "google.protobuf.Duration":
      return { type: "string" };
    case "google.protobuf.Any":
      return {
        type: "object",
        properties: { type_url: { type: "string" }, value: { type: "string", format: "byte" } },
      };
  }
  if (seen.includes(desc.typeName)) return { type: "object" };
  const properties: Record<string, Schema> = {};
  for (const f of desc.fields) properties[f.name] = fieldSchema(f, [...seen, desc.typeName]);
  return { type: "object", properties };
}

function enumSchema(f: DescField & { enum: NonNullable<DescField["enum"]> }): Schema {
  const names = f.enum.values.map((v) => v.name);
  return { type: "string", enum: names, default: names[0] };
}

function fieldSchema(f: DescField, seen: readonly string[]): Schema {
  let s: Schema;
  switch (f.fieldKind) {
    case "scalar":
      s = scalarSchema(f.scalar);
      break;
    case "enum":
      s = enumSchema(f);
      break;
    case "message":
      s = messageSchema(f.message, seen);
      break;
    case "list":
      s = {
        type: "array",
        items:
          f.listKind === "scalar"
            ? scalarSchema(f.scalar)
            : f.listKind === "enum"
              ? enumSchema(f as never)
              : messageSchema(f.message, seen),
      };
      break;
    case "map":
      s = {
        type: "object",
        additionalProperties:
          f.mapKind === "scalar"
            ? scalarSchema(f.scalar)
            : f.mapKind === "enum"
              ? enumSchema(f as never)
              : messageSchema(f.message, seen),
      };
      break;
  }
  return f.deprecated ? { ...s, description: "Deprecated: this field is deprecated and should not be used." } : s;
}

function paramSchema(f: DescField): Schema {
  if (f.fieldKind === "enum") return enumSchema(f);
  if (f.fieldKind === "scalar") return scalarSchema(f.scalar);
  return { type: "string" };
}

/** Query parameters: every leaf field not bound by the path, nested messages flattened with dots. */
function queryParams(desc: DescMessage, prefix: string, route: Route, seen: readonly string[]): Schema[] {
  const out: Schema[] = [];
  for (const f of desc.fields) {
    const name = prefix + f.name;
    const path = name.split(".");
    if (route.filter.some((p) => p.length <= path.length && p.every((x, i) => x === path[i]))) continue;
    if (f.fieldKind === "message") {
      if (f.message.typeName.startsWith("google.protobuf.") || seen.includes(f.message.typeName)) continue;
      out.push(...queryParams(f.message, `${name}.`, route, [...seen, f.message.typeName]));
      continue;
    }
    if (f.fieldKind === "map") continue;
    const base: Schema = { name, in: "query", required: false };
    if (f.fieldKind === "list") {
      if (f.listKind === "message") continue;
      const items = f.listKind === "enum" ? enumSchema(f as never) : scalarSchema(f.scalar!);
      out.push({ ...base, type: "array", items, collectionFormat: "multi" });
      continue;
    }
    out.push({ ...base, ...paramSchema(f) });
  }
  return out;
}

function fieldByPath(desc: DescMessage, path: string): DescField | undefined {
  let d: DescMessage | undefined = desc;
  let field: DescField | undefined;
  for (const part of path.split(".")) {
    field = d?.fields.find((f) => f.name === part);
    d = field?.fieldKind === "message" ? field.message : undefined;
  }
  return field;
}

/** The Swagger 2.0 document as a plain object. Operation ids are method names, qualified when they collide. */
export function swaggerDocument(routes: readonly Route[], ns: Namespace = "chain"): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedIds = new Set<string>();
  for (const route of routes) {
    const m = route.method;
    const full = `${m.parent.typeName}.${m.name}`;
    let operationId = m.name;
    if (usedIds.has(operationId)) operationId = `${m.parent.typeName.replace(/\./g, "_")}_${m.name}`;
    usedIds.add(operationId);
    const parameters: Schema[] = route.template.vars.map((v) => {
      const f = fieldByPath(m.input, v);
      return { name: v, in: "path", required: true, ...(f === undefined ? { type: "string" } : paramSchema(f)) };
    });
    if (route.readsQuery) parameters.push(...queryParams(m.input, "", route, [m.input.typeName]));
    const op: Record<string, unknown> = {
      summary: METHOD_DOCS[full.slice(full.indexOf(".") + 1)] ?? m.name,
      operationId,
      responses: {
        "200": { description: "A successful response.", schema: messageSchema(m.output, []) },
        default: { description: "An unexpected error response.", schema: ERROR_SCHEMA },
      },
      ...(parameters.length > 0 ? { parameters } : {}),
      tags: [m.parent.name],
      ...(m.deprecated ? { deprecated: true } : {}),
    };
    const key = swaggerPath(route.template);
    paths[key] = { ...(paths[key] ?? {}), [route.httpMethod.toLowerCase()]: op };
  }
  const sorted: Record<string, unknown> = {};
  for (const k of Object.keys(paths).sort()) sorted[k] = paths[k];
  return {
    swagger: "2.0",
    info: { title: swaggerTitle(ns), description: SWAGGER_DESCRIPTION, version: "1.0.0" },
    paths: sorted,
  };
}

/** The document as YAML (what `/swagger/swagger.yaml` serves). */
export const swaggerYaml = (routes: readonly Route[], ns: Namespace = "chain"): string =>
  stringify(swaggerDocument(routes, ns), { aliasDuplicateObjects: false });

/**
 * The Swagger UI files `/swagger/` serves beside its page, from the swagger-ui-dist package (as the reference embeds
 * its UI in the binary): nothing is fetched from a CDN, so the page works offline. The edge that owns the file
 * system supplies them (`SwaggerAssets`); the gateway stays pure.
 */
export const SWAGGER_UI_FILES = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
} as const;
export type SwaggerUiFile = keyof typeof SWAGGER_UI_FILES;

/** The text of a Swagger UI file (undefined when it cannot be read). */
export type SwaggerAssets = (file: SwaggerUiFile) => string | undefined;

export const isSwaggerUiFile = (name: string): name is SwaggerUiFile => Object.hasOwn(SWAGGER_UI_FILES, name);

/** The page `/swagger/` serves: the UI from `/swagger/` itself, reading the YAML document. */
export const swaggerHtml = (ns: Namespace): string => `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="UTF-8">
  <title>${swaggerTitle(ns)}</title>
  <link rel="stylesheet" href="/swagger/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger/swagger-ui-bundle.js"></script>
  <script src="/swagger/swagger-ui-standalone-preset.js"></script>
  <script>
    window.onload = () => {
      window.ui = SwaggerUIBundle({
        url: "/swagger/swagger.yaml",
        dom_id: "#swagger-ui",
        presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
        layout: "StandaloneLayout",
      });
    };
  </script>
</body>
</html>
`;
