import { type DescMethod, type DescService, getOption, hasOption } from "@bufbuild/protobuf";
import { err, ok, type Result } from "../../core/errors.js";
import { http } from "../../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../../gen/google/api/http_pb.js";
import type { BoundService, EncodedHandler, UnaryHandler } from "../backend.js";
import { hasQueryParams } from "./params.js";
import { type PathTemplate, parseTemplate } from "./template.js";

/**
 * REST routes derived from the `google.api.http` option of every bound unary method (never a hand-written table).
 * Order is registration order (services as bound, methods in declaration order, then additional bindings), which is
 * the order grpc-gateway v1 tries them in. Rules with a request body are not served (query services have none).
 */
export interface Route {
  readonly httpMethod: string;
  readonly template: PathTemplate;
  readonly service: DescService;
  readonly method: DescMethod;
  readonly handler: UnaryHandler;
  /** The method's encoded handler, when its service has one: the gateway renders its bytes (json.ts). */
  readonly encoded: EncodedHandler | undefined;
  /** The generated handler reads the query string (the request has a field no path variable binds). */
  readonly readsQuery: boolean;
  /** Path variable field paths split on `.`: query keys under them are ignored. */
  readonly filter: readonly (readonly string[])[];
}

function patternOf(rule: HttpRule): { method: string; path: string } | undefined {
  switch (rule.pattern.case) {
    case "get":
      return { method: "GET", path: rule.pattern.value };
    case "put":
      return { method: "PUT", path: rule.pattern.value };
    case "post":
      return { method: "POST", path: rule.pattern.value };
    case "delete":
      return { method: "DELETE", path: rule.pattern.value };
    case "patch":
      return { method: "PATCH", path: rule.pattern.value };
    case "custom":
      return { method: rule.pattern.value.kind, path: rule.pattern.value.path };
    default:
      return undefined;
  }
}

/** Builds the routes of all bound services; a malformed template is a startup error. */
export function buildRoutes(services: readonly BoundService[]): Result<readonly Route[], string> {
  const routes: Route[] = [];
  for (const bound of services) {
    for (const method of bound.service.methods) {
      const handler = bound.handlers.get(method.name);
      if (handler === undefined || method.methodKind !== "unary" || !hasOption(method, http)) continue;
      const primary = getOption(method, http);
      for (const rule of [primary, ...primary.additionalBindings]) {
        const pattern = patternOf(rule);
        if (pattern === undefined || rule.body !== "") continue;
        const template = parseTemplate(pattern.path);
        if (!template.ok) return err(`${method.parent.typeName}.${method.name}: ${template.error}`);
        routes.push({
          httpMethod: pattern.method,
          template: template.value,
          service: bound.service,
          method,
          handler,
          encoded: bound.encoded?.get(method.name),
          readsQuery: hasQueryParams(method.input, template.value.vars),
          filter: template.value.vars.map((v) => v.split(".")),
        });
      }
    }
  }
  return ok(routes);
}
