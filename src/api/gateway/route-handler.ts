import { create, type DescMessage, type Message } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import type { Ctx } from "../../core/context.js";
import { ok, type Result } from "../../core/errors.js";
import { parseQuery, type QueryValues, type RequestTarget } from "../../core/go/url.js";
import { decodeMessage } from "../../core/proto-decode.js";
import { lengthDelimitedRecord } from "../../core/proto-wire.js";
import type { EncodedHandler, HandlerError, QueryBackend } from "../backend.js";
import { runQuery } from "../height.js";
import { type GatewayJsonOptions, gatewayJson, gatewayJsonOfTranscoded, MarshalError } from "../json.js";
import { forwardedMetadata, heightValues, parseGrpcTimeout, type RawHeaders, validateMetadata } from "./headers.js";
import { populateQuery, setPathParam } from "./params.js";
import { type GatewayResponse, type HeaderList, JSON_CT, respond, statusResponse } from "./response.js";
import type { Route } from "./routes.js";

/**
 * One route's handler, as grpc-gateway v1.16 generates it (`request_<Service>_<Method>_0` and the mux's handler
 * around it), for a request the mux matched:
 *
 * 1. AnnotateContext: `Grpc-Timeout` (400 when malformed) and the forwarded metadata (`Grpc-Metadata-*`, `-Bin`).
 * 2. Parameters: path variables into the request (400 `type mismatch, parameter: ...`), then the query string or
 *    the POST form (400), skipping keys under path variables.
 * 3. The gRPC client call: forwarded metadata validated (500, code 13), deadline (504), the height interceptor and
 *    the query (runQuery), errors mapped by code with the metadata headers once a height is known.
 * 4. JSON: the response marshalled (gatewayJson) with the metadata and the height header; a marshal failure is
 *    code 2 with the metadata written twice, as ForwardResponseMessage and the error handler both write it. A route
 *    whose method answers encoded (Route.encoded) has its bytes transcoded to the same text in step 3
 *    (json.ts gatewayJsonOfTranscoded); bytes the transcoder leaves are decoded there, in the handler's place, so a
 *    decode error is the internal error a throwing handler is, and the message goes on to step 4.
 */
export interface RouteContext {
  readonly backend: QueryBackend;
  /** The backend's height request header (lower case). */
  readonly heightHeader: string;
  /** The same name as the SDK emits it on a response (`X-Chain-Block-Height`). */
  readonly heightResponseHeader: string;
  readonly json?: GatewayJsonOptions;
}

/** What the mux matched: the route, its path variables, the request and, for the form fallback, the parsed form. */
export interface RouteCall {
  readonly route: Route;
  readonly params: ReadonlyMap<string, string>;
  readonly rawHeaders: RawHeaders;
  readonly target: RequestTarget;
  readonly form: QueryValues | undefined;
  /** Headers every answer carries (CORS). */
  readonly extra: HeaderList;
}

export function serveRoute(ctx: RouteContext, call: RouteCall): GatewayResponse {
  const { route, rawHeaders, extra } = call;
  // 1. AnnotateContext.
  const deadline = parseGrpcTimeout(rawHeaders);
  if (!deadline.ok) return statusResponse(deadline.error, extra);
  const metadata = forwardedMetadata(rawHeaders, ctx.heightHeader);
  if (!metadata.ok) return statusResponse(metadata.error, extra);
  // 2. Parameters.
  const request = create(route.method.input);
  const bad = readParams(request, call);
  if (bad !== undefined) return statusResponse({ code: Code.InvalidArgument, message: bad }, extra);
  // 3. The gateway's gRPC client call.
  const invalidMd = validateMetadata(metadata.value);
  if (invalidMd !== undefined) return statusResponse(invalidMd, extra);
  if (deadline.value === "expired") {
    return statusResponse({ code: Code.DeadlineExceeded, message: "context deadline exceeded" }, extra);
  }
  const heights = heightValues(rawHeaders, ctx.heightHeader);
  const outcome =
    route.encoded === undefined
      ? runQuery(ctx.backend, route.handler, request, heights)
      : runQuery(
          ctx.backend,
          (c, r) => rendered(route.encoded!, route.method.output, ctx.json, c, r),
          request,
          heights,
        );
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
  // 4. JSON.
  const h = String(outcome.height);
  const md: HeaderList = [
    ["Grpc-Metadata-Content-Type", "application/grpc"],
    [`Grpc-Metadata-${ctx.heightResponseHeader}`, h],
  ];
  const heightHeader: readonly [string, string] = [ctx.heightResponseHeader, h];
  try {
    const res = outcome.response;
    const body = typeof res === "string" ? res : gatewayJson(route.method.output, res, ctx.json);
    return respond(200, [...extra, JSON_CT, ...md, heightHeader], body);
  } catch (e) {
    if (!(e instanceof MarshalError)) throw e;
    // ForwardResponseMessage already wrote the metadata and the height header; the error handler adds the
    // metadata again.
    return statusResponse({ code: Code.Unknown, message: e.message }, [...extra, ...md, heightHeader, ...md]);
  }
}

/** Step 2: fills `request` from the path variables and the query or form; the 400 message, or undefined. */
function readParams(request: Message, call: RouteCall): string | undefined {
  const { route, params, target, form } = call;
  const input = route.method.input;
  for (const v of route.template.vars) {
    const set = setPathParam(request, input, v, params.get(v) ?? "");
    if (!set.ok) return `type mismatch, parameter: ${v}, error: ${set.error}`;
  }
  if (!route.readsQuery) return undefined;
  let values = form;
  if (values === undefined) {
    const q = parseQuery(target.rawQuery);
    if (q.error !== undefined) return q.error;
    values = q.values;
  }
  // No parameters: populateQuery would set nothing.
  if (values.size === 0) return undefined;
  const populated = populateQuery(request, input, values, route.filter);
  return populated.ok ? undefined : populated.error;
}

/** An encoded handler's answer as its gateway JSON text, or the decoded message when the transcoder leaves it. */
function rendered(
  handler: EncodedHandler,
  output: DescMessage,
  json: GatewayJsonOptions | undefined,
  ctx: Ctx,
  request: Message,
): Result<string | Message, HandlerError> {
  const r = handler(ctx, request);
  if (!r.ok) return r;
  const { bytes, field } = r.value;
  const text = gatewayJsonOfTranscoded(output, bytes, field, json);
  if (text !== undefined) return ok(text);
  return ok(decodeMessage(output, field === undefined ? bytes : lengthDelimitedRecord(field, bytes)));
}
