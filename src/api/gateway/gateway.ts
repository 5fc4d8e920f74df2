import { Code } from "@connectrpc/connect";
import { err, ok, type Result } from "../../core/errors.js";
import {
  type ByteString,
  cleanPath,
  escapePath,
  parseQuery,
  parseRequestTarget,
  type QueryValues,
  type RequestTarget,
} from "../../core/go/url.js";
import { backendNames, type QueryBackend } from "../backend.js";
import type { GatewayJsonOptions } from "../json.js";
import { corsDecision } from "./cors.js";
import { answerHeadersKey, firstHeader, type RawHeaders } from "./headers.js";
import {
  BAD_REQUEST,
  type GatewayResponse,
  type HeaderList,
  internalResponse,
  NOT_IMPLEMENTED,
  respond,
  statusResponse,
  TEXT_CT,
} from "./response.js";
import { ResponseCache } from "./response-cache.js";
import { type RouteCall, type RouteContext, serveRoute } from "./route-handler.js";
import { buildRoutes, type Route } from "./routes.js";
import { isSwaggerUiFile, SWAGGER_UI_FILES, type SwaggerAssets, swaggerHtml, swaggerYaml } from "./swagger.js";
import { matchTemplate } from "./template.js";

export type { GatewayResponse, HeaderList } from "./response.js";
export { RESPONSE_CACHE_BYTES_MAX } from "./response-cache.js";

/** One HTTP request as the gateway sees it (transport-independent, so the pipeline is testable without sockets). */
export interface GatewayRequest {
  readonly method: string;
  /** The raw request target (node `req.url`). */
  readonly target: string;
  /** node `req.rawHeaders` (name, value, ...). */
  readonly rawHeaders: RawHeaders;
  /** Reads the whole body as a byte string, failing once it exceeds `api.rpc-max-body-bytes`. */
  readonly readBody: () => Promise<Result<ByteString, "too-large">>;
}

/** A request whose body (if any) is already at hand: the synchronous form of the pipeline (in-process queries). */
export interface ReadGatewayRequest {
  readonly method: string;
  readonly target: string;
  readonly rawHeaders: RawHeaders;
  readonly body: Result<ByteString, "too-large">;
}

/** The body as the pipeline sees it: not read yet, or read. */
type BodyState = Result<ByteString, "too-large"> | undefined;

/** Returned by the pipeline when it needs a body that is not read yet; the caller reads it and runs again. */
const NEEDS_BODY = Symbol("needs-body");
type Outcome = GatewayResponse | typeof NEEDS_BODY;

export interface GatewayOptions {
  /** `api.enabled-unsafe-cors`. */
  readonly cors: boolean;
  /** `api.swagger`. */
  readonly swagger: boolean;
  /** The Swagger UI's files (swagger-ui-dist), supplied by the server edge; without them only the page and YAML. */
  readonly swaggerAssets?: SwaggerAssets;
  readonly json?: GatewayJsonOptions;
}

/** The plain response header the SDK adds on success (`X-Chain-Block-Height`). */
const canonicalHeader = (name: string): string =>
  name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase());
const FORM_CT = "application/x-www-form-urlencoded";

/** What the pipeline reads of a request besides its body. */
type RequestHead = Pick<GatewayRequest, "method" | "target" | "rawHeaders">;

const asciiUpper = (s: string): string => s.replace(/[a-z]/g, (c) => c.toUpperCase());

type FormResult = Result<QueryValues, { message: string; close: boolean }>;

/** A POST of a form (grpc-gateway's method-override and form fallback apply only to those). */
const isFormPost = (method: string, raw: RawHeaders): boolean =>
  method === "POST" && firstHeader(raw, "content-type") === FORM_CT;

/**
 * The REST gateway of docs/node-api.md §2: request-target checks (400), CORS (§4), path cleaning (301), Swagger (§3), then
 * the grpc-gateway v1.16 mux over the routes built from the descriptors, and each route's handler: AnnotateContext
 * (`Grpc-Timeout`, `-Bin` headers) → path and query parameters (400) → forwarded metadata validation (500, code 13)
 * → deadline (504) → height interceptor and query context (500) → the query handler → JSON. The mux is here; each
 * route's handler is route-handler.ts, the response shapes response.ts, the GET cache response-cache.ts.
 */
export class Gateway {
  readonly routes: readonly Route[];
  readonly #backend: QueryBackend;
  readonly #opts: GatewayOptions;
  readonly #byMethod = new Map<string, Route[]>();
  readonly #swaggerYaml: string;
  readonly #swaggerHtml: string;
  /** What each route's handler reads: the backend, its height header names, the JSON options. */
  readonly #route: RouteContext;
  /**
   * Responses to body-less GET requests, keyed by the target, the headers the answer can depend on
   * (`answerHeadersKey`) and the backend's retained window (latest, earliest). The state at a retained height
   * never changes, and a request's answer depends only on those, so a hit returns exactly what the pipeline would
   * compute (response-cache.ts says how it is bounded).
   */
  readonly #cache = new ResponseCache();

  private constructor(backend: QueryBackend, routes: readonly Route[], opts: GatewayOptions) {
    this.#backend = backend;
    const heightHeader = backendNames(backend).heightHeader;
    this.#route = {
      backend,
      heightHeader,
      heightResponseHeader: canonicalHeader(heightHeader),
      ...(opts.json === undefined ? {} : { json: opts.json }),
    };
    this.routes = routes;
    this.#opts = opts;
    for (const r of routes) {
      const list = this.#byMethod.get(r.httpMethod);
      if (list === undefined) this.#byMethod.set(r.httpMethod, [r]);
      else list.push(r);
    }
    this.#swaggerYaml = opts.swagger ? swaggerYaml(routes, backend.namespace ?? "chain") : "";
    this.#swaggerHtml = swaggerHtml(backend.namespace ?? "chain");
  }

  static create(backend: QueryBackend, opts: GatewayOptions): Result<Gateway, string> {
    const routes = buildRoutes(backend.services);
    if (!routes.ok) return routes;
    return ok(new Gateway(backend, routes.value, opts));
  }

  /**
   * Handles one request; never throws (an unexpected failure is a 500 with code 13). The body is read only when
   * the pipeline needs it (the POST form fallback); the pipeline is pure up to that point, so it is run again with
   * the body.
   */
  async handle(req: GatewayRequest): Promise<GatewayResponse> {
    try {
      const first = this.#handle(req, undefined);
      if (first !== NEEDS_BODY) return first;
      const again = this.#handle(req, await req.readBody());
      return again === NEEDS_BODY ? internalResponse() : again;
    } catch {
      return internalResponse();
    }
  }

  /**
   * The pipeline without reading the body: the response, or undefined when this request needs its body (then call
   * `handle`). Lets the HTTP listener answer body-less requests synchronously. Never throws.
   */
  handleWithoutBody(req: Pick<GatewayRequest, "method" | "target" | "rawHeaders">): GatewayResponse | undefined {
    try {
      const r = this.#handle(req, undefined);
      return r === NEEDS_BODY ? undefined : r;
    } catch {
      return internalResponse();
    }
  }

  /** The same pipeline, synchronously, for a request whose body is at hand (in-process queries). Never throws. */
  handleRead(req: ReadGatewayRequest): GatewayResponse {
    try {
      const r = this.#handle(req, req.body);
      return r === NEEDS_BODY ? internalResponse() : r;
    } catch {
      return internalResponse();
    }
  }

  #handle(req: RequestHead, body: BodyState): Outcome {
    if (req.method !== "GET" || body !== undefined) return this.#compute(req, body);
    const key = `${this.#backend.latestHeight()}|${this.#backend.earliestHeight()}|${req.target}|${answerHeadersKey(req.rawHeaders, this.#route.heightHeader)}`;
    const hit = this.#cache.get(key);
    if (hit !== undefined) return hit;
    const r = this.#compute(req, body);
    if (r !== NEEDS_BODY) this.#cache.offer(key, r);
    return r;
  }

  /** Bytes held by the response cache (see RESPONSE_CACHE_BYTES_MAX). */
  get cacheBytes(): number {
    return this.#cache.bytes;
  }

  #compute(req: RequestHead, body: BodyState): Outcome {
    if (req.method === "OPTIONS" && req.target === "*") return respond(200, [], "");
    const parsed = parseRequestTarget(req.target);
    if (!parsed.ok) return BAD_REQUEST;
    const target = parsed.value;
    let extra: HeaderList = [];
    if (this.#opts.cors) {
      const d = corsDecision(req.method, req.rawHeaders);
      if (d.kind === "respond") return respond(d.status, d.headers, "");
      extra = d.headers;
    }
    const cleaned = cleanPath(target.path);
    if (cleaned !== target.path) {
      const query = target.rawQuery !== "" || target.forceQuery ? `?${target.rawQuery}` : "";
      return respond(301, [...extra, ["Location", `${target.origin}${escapePath(cleaned)}${query}`]], "");
    }
    if (this.#opts.swagger && (cleaned === "/swagger" || cleaned.startsWith("/swagger/"))) {
      return this.#swagger(cleaned, extra);
    }
    return this.#mux(req, body, target, extra);
  }

  #swagger(path: string, extra: HeaderList): GatewayResponse {
    if (path === "/swagger" || path === "/swagger/" || path === "/swagger/index.html") {
      return respond(200, [...extra, ["Content-Type", "text/html; charset=utf-8"]], this.#swaggerHtml);
    }
    if (path === "/swagger/swagger.yaml") {
      return respond(200, [...extra, ["Content-Type", "application/yaml"]], this.#swaggerYaml);
    }
    const file = path.slice("/swagger/".length);
    const asset = isSwaggerUiFile(file) ? this.#opts.swaggerAssets?.(file) : undefined;
    if (asset !== undefined && isSwaggerUiFile(file)) {
      return respond(200, [...extra, ["Content-Type", SWAGGER_UI_FILES[file]]], asset);
    }
    return respond(404, [...extra, TEXT_CT, ["X-Content-Type-Options", "nosniff"]], "404 page not found\n");
  }

  /** Go `Request.ParseForm` for a POST form: body pairs first, then the URL query; the first error wins. */
  #parseForm(body: Result<ByteString, "too-large">, target: RequestTarget): FormResult {
    const values = new Map<string, string[]>();
    let error: string | undefined;
    let close = false;
    if (!body.ok) {
      error = "http: request body too large";
      close = true;
    } else {
      const b = parseQuery(body.value);
      error = b.error;
      for (const [k, v] of b.values) values.set(k, [...v]);
    }
    const q = parseQuery(target.rawQuery);
    error ??= q.error;
    for (const [k, v] of q.values) values.set(k, [...(values.get(k) ?? []), ...v]);
    return error === undefined ? ok(values) : err({ message: error, close });
  }

  #mux(req: RequestHead, body: BodyState, target: RequestTarget, extra: HeaderList): Outcome {
    const path = target.path;
    if (!path.startsWith("/")) return statusResponse({ code: Code.InvalidArgument, message: "Bad Request" }, extra);
    const comps = path.slice(1).split("/");
    const lastIdx = comps.length - 1;
    const last = comps[lastIdx]!;
    const colon = last.lastIndexOf(":");
    if (colon === 0) return statusResponse(NOT_IMPLEMENTED, extra);
    let verb = "";
    if (colon > 0) {
      comps[lastIdx] = last.slice(0, colon);
      verb = last.slice(colon + 1);
    }
    let method = req.method;
    let form: QueryValues | undefined;
    const override = firstHeader(req.rawHeaders, "x-http-method-override");
    if (override !== "" && isFormPost(method, req.rawHeaders)) {
      method = asciiUpper(override);
      if (body === undefined) return NEEDS_BODY;
      const f = this.#parseForm(body, target);
      if (!f.ok) return statusResponse({ code: Code.InvalidArgument, message: f.error.message }, extra, f.error.close);
      form = f.value;
    }
    for (const route of this.#byMethod.get(method) ?? []) {
      const params = matchTemplate(route.template, comps, verb);
      if (params !== undefined) return this.#serve({ route, params, rawHeaders: req.rawHeaders, target, form, extra });
    }
    for (const [m, routes] of this.#byMethod) {
      if (m === method) continue;
      for (const route of routes) {
        const params = matchTemplate(route.template, comps, verb);
        if (params === undefined) continue;
        if (!isFormPost(method, req.rawHeaders)) return statusResponse(NOT_IMPLEMENTED, extra);
        if (form === undefined) {
          if (body === undefined) return NEEDS_BODY;
          const f = this.#parseForm(body, target);
          if (!f.ok) {
            return statusResponse({ code: Code.InvalidArgument, message: f.error.message }, extra, f.error.close);
          }
          form = f.value;
        }
        return this.#serve({ route, params, rawHeaders: req.rawHeaders, target, form, extra });
      }
    }
    return statusResponse(NOT_IMPLEMENTED, extra);
  }

  #serve(call: RouteCall): GatewayResponse {
    return serveRoute(this.#route, call);
  }
}
