import { create } from "@bufbuild/protobuf";
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
import { runQuery } from "../height.js";
import { type GatewayJsonOptions, gatewayJson, MarshalError } from "../json.js";
import { errorBody, httpStatusOf, INTERNAL_ERROR_MESSAGE, type Status } from "../status.js";
import { corsDecision } from "./cors.js";
import {
  answerHeadersKey,
  firstHeader,
  forwardedMetadata,
  heightValues,
  parseGrpcTimeout,
  type RawHeaders,
  validateMetadata,
} from "./headers.js";
import { populateQuery, setPathParam } from "./params.js";
import { buildRoutes, type Route } from "./routes.js";
import { isSwaggerUiFile, SWAGGER_UI_FILES, type SwaggerAssets, swaggerHtml, swaggerYaml } from "./swagger.js";
import { matchTemplate } from "./template.js";

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

export type HeaderList = readonly (readonly [string, string])[];

export interface GatewayResponse {
  readonly status: number;
  /** Header names with the casing to emit. */
  readonly headers: HeaderList;
  readonly body: string;
  /** Close the connection after this response. */
  readonly close: boolean;
}

export interface GatewayOptions {
  /** `api.enabled-unsafe-cors`. */
  readonly cors: boolean;
  /** `api.swagger`. */
  readonly swagger: boolean;
  /** The Swagger UI's files (swagger-ui-dist), supplied by the server edge; without them only the page and YAML. */
  readonly swaggerAssets?: SwaggerAssets;
  readonly json?: GatewayJsonOptions;
}

const JSON_CT: readonly [string, string] = ["Content-Type", "application/json"];
/** The plain response header the SDK adds on success (`X-Chain-Block-Height`). */
const canonicalHeader = (name: string): string =>
  name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase());
const TEXT_CT: readonly [string, string] = ["Content-Type", "text/plain; charset=utf-8"];
const FORM_CT = "application/x-www-form-urlencoded";

const respond = (status: number, headers: HeaderList, body: string, close = false): GatewayResponse => ({
  status,
  headers,
  body,
  close,
});

/** A gateway error response: status → HTTP code, `google.rpc.Status` body. */
const statusResponse = (s: Status, headers: HeaderList, close = false): GatewayResponse =>
  respond(httpStatusOf(s.code), [JSON_CT, ...headers], errorBody(s), close);

/** Go's own answer to a request target it cannot parse (before any handler). */
const BAD_REQUEST = respond(400, [TEXT_CT, ["Connection", "close"]], "400 Bad Request", true);

const internalResponse = (): GatewayResponse =>
  statusResponse({ code: Code.Internal, message: INTERNAL_ERROR_MESSAGE }, []);

/** What the pipeline reads of a request besides its body. */
type RequestHead = Pick<GatewayRequest, "method" | "target" | "rawHeaders">;

/** Entries of the per-gateway response cache. */
const RESPONSE_CACHE_MAX = 1024;
/** Bytes (UTF-16 code units of keys and bodies, headers included) the response cache may hold. */
export const RESPONSE_CACHE_BYTES_MAX = 16 << 20;
/** A response whose key and body are larger than this is computed each time, never cached. */
const RESPONSE_CACHE_ENTRY_BYTES_MAX = 256 << 10;

/** What a cached entry costs: its key, its body and its header text. */
const entryBytes = (key: string, r: GatewayResponse): number => {
  let n = key.length + r.body.length + 64;
  for (const [k, v] of r.headers) n += k.length + v.length;
  return n;
};

const NOT_IMPLEMENTED: Status = { code: Code.Unimplemented, message: "Not Implemented" };

const asciiUpper = (s: string): string => s.replace(/[a-z]/g, (c) => c.toUpperCase());

type FormResult = Result<QueryValues, { message: string; close: boolean }>;

/**
 * The REST gateway of docs/node-api.md §2: request-target checks (400), CORS (§4), path cleaning (301), Swagger (§3), then
 * the grpc-gateway v1.16 mux over the routes built from the descriptors, and each route's handler: AnnotateContext
 * (`Grpc-Timeout`, `-Bin` headers) → path and query parameters (400) → forwarded metadata validation (500, code 13)
 * → deadline (504) → height interceptor and query context (500) → the query handler → JSON.
 */
export class Gateway {
  readonly routes: readonly Route[];
  readonly #backend: QueryBackend;
  readonly #opts: GatewayOptions;
  readonly #byMethod = new Map<string, Route[]>();
  readonly #swaggerYaml: string;
  readonly #swaggerHtml: string;
  /** The backend's height header, the plain response header the SDK adds on success (`X-Chain-Block-Height`). */
  readonly #heightHeader: string;
  readonly #heightResponseHeader: string;
  /**
   * Responses to body-less GET requests, keyed by the target, the headers the answer can depend on
   * (`answerHeadersKey`) and the backend's retained window (latest, earliest). The state at a retained height
   * never changes, and a request's answer depends only on those, so a hit returns exactly what the pipeline would
   * compute. Bounded in entries and in bytes (`RESPONSE_CACHE_BYTES_MAX`), evicted oldest first.
   */
  readonly #cache = new Map<string, { readonly r: GatewayResponse; readonly bytes: number }>();
  #cacheBytes = 0;

  private constructor(backend: QueryBackend, routes: readonly Route[], opts: GatewayOptions) {
    this.#backend = backend;
    this.#heightHeader = backendNames(backend).heightHeader;
    this.#heightResponseHeader = canonicalHeader(this.#heightHeader);
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
    const key = `${this.#backend.latestHeight()}|${this.#backend.earliestHeight()}|${req.target}|${answerHeadersKey(req.rawHeaders, this.#heightHeader)}`;
    const hit = this.#cache.get(key);
    if (hit !== undefined) return hit.r;
    const r = this.#compute(req, body);
    if (r !== NEEDS_BODY && r.status !== 500) {
      const bytes = entryBytes(key, r);
      if (bytes <= RESPONSE_CACHE_ENTRY_BYTES_MAX) {
        while (
          this.#cache.size > 0 &&
          (this.#cache.size >= RESPONSE_CACHE_MAX || this.#cacheBytes + bytes > RESPONSE_CACHE_BYTES_MAX)
        ) {
          const [oldest, entry] = this.#cache.entries().next().value!;
          this.#cache.delete(oldest);
          this.#cacheBytes -= entry.bytes;
        }
        this.#cache.set(key, { r, bytes });
        this.#cacheBytes += bytes;
      }
    }
    return r;
  }

  /** Bytes held by the response cache (see RESPONSE_CACHE_BYTES_MAX). */
  get cacheBytes(): number {
    return this.#cacheBytes;
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
    return this.#mux(req, body, { ...target, path: cleaned }, extra);
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
    const isFallback = (): boolean => method === "POST" && firstHeader(req.rawHeaders, "content-type") === FORM_CT;
    const override = firstHeader(req.rawHeaders, "x-http-method-override");
    if (override !== "" && isFallback()) {
      method = asciiUpper(override);
      if (body === undefined) return NEEDS_BODY;
      const f = this.#parseForm(body, target);
      if (!f.ok) return statusResponse({ code: Code.InvalidArgument, message: f.error.message }, extra, f.error.close);
      form = f.value;
    }
    for (const route of this.#byMethod.get(method) ?? []) {
      const params = matchTemplate(route.template, comps, verb);
      if (params !== undefined) return this.#serve(route, params, req, target, form, extra);
    }
    for (const [m, routes] of this.#byMethod) {
      if (m === method) continue;
      for (const route of routes) {
        const params = matchTemplate(route.template, comps, verb);
        if (params === undefined) continue;
        if (!isFallback()) return statusResponse(NOT_IMPLEMENTED, extra);
        if (form === undefined) {
          if (body === undefined) return NEEDS_BODY;
          const f = this.#parseForm(body, target);
          if (!f.ok) {
            return statusResponse({ code: Code.InvalidArgument, message: f.error.message }, extra, f.error.close);
          }
          form = f.value;
        }
        return this.#serve(route, params, req, target, form, extra);
      }
    }
    return statusResponse(NOT_IMPLEMENTED, extra);
  }

  #serve(
    route: Route,
    params: ReadonlyMap<string, string>,
    req: RequestHead,
    target: RequestTarget,
    form: QueryValues | undefined,
    extra: HeaderList,
  ): GatewayResponse {
    const invalid = (message: string) => statusResponse({ code: Code.InvalidArgument, message }, extra);
    // AnnotateContext.
    const deadline = parseGrpcTimeout(req.rawHeaders);
    if (!deadline.ok) return statusResponse(deadline.error, extra);
    const metadata = forwardedMetadata(req.rawHeaders, this.#heightHeader);
    if (!metadata.ok) return statusResponse(metadata.error, extra);
    // Parameters.
    const input = route.method.input;
    const request = create(input);
    for (const v of route.template.vars) {
      const set = setPathParam(request, input, v, params.get(v) ?? "");
      if (!set.ok) return invalid(`type mismatch, parameter: ${v}, error: ${set.error}`);
    }
    if (route.readsQuery) {
      let values = form;
      if (values === undefined) {
        const q = parseQuery(target.rawQuery);
        if (q.error !== undefined) return invalid(q.error);
        values = q.values;
      }
      const populated = populateQuery(request, input, values, route.filter);
      if (!populated.ok) return invalid(populated.error);
    }
    // The gateway's gRPC client call.
    const bad = validateMetadata(metadata.value);
    if (bad !== undefined) return statusResponse(bad, extra);
    if (deadline.value === "expired") {
      return statusResponse({ code: Code.DeadlineExceeded, message: "context deadline exceeded" }, extra);
    }
    const outcome = runQuery(this.#backend, route.handler, request, heightValues(req.rawHeaders, this.#heightHeader));
    if (!outcome.ok) {
      const md: HeaderList =
        outcome.height === undefined
          ? []
          : [
              ["Grpc-Metadata-Content-Type", "application/grpc"],
              ["Grpc-Metadata-X-Chain-Block-Height", String(outcome.height)],
            ];
      return statusResponse(outcome.status, [...extra, ...md]);
    }
    const h = String(outcome.height);
    const md: HeaderList = [
      ["Grpc-Metadata-Content-Type", "application/grpc"],
      [`Grpc-Metadata-${this.#heightResponseHeader}`, h],
    ];
    const heightHeader: readonly [string, string] = [this.#heightResponseHeader, h];
    try {
      const body = gatewayJson(route.method.output, outcome.response, this.#opts.json);
      return respond(200, [...extra, JSON_CT, ...md, heightHeader], body);
    } catch (e) {
      if (!(e instanceof MarshalError)) throw e;
      // ForwardResponseMessage already wrote the metadata and the height header; the error handler adds the
      // metadata again.
      return statusResponse({ code: Code.Unknown, message: e.message }, [...extra, ...md, heightHeader, ...md]);
    }
  }
}
