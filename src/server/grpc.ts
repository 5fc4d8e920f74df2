import http2 from "node:http2";
import type { DescMethod } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  createContextKey,
  createContextValues,
  type HandlerContext,
} from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { backendNames, type QueryBackend } from "../api/backend.js";
import { DescriptorIndex } from "../api/grpc/descriptor-index.js";
import { REFLECTION_SERVICES, reflectionHandler } from "../api/grpc/reflection.js";
import { runQuery } from "../api/height.js";
import { wireAnyFiles } from "../api/wire.js";

/**
 * The gRPC server (docs/node-api.md §5): h2c (HTTP/2 prior knowledge, no TLS) serving every bound query service, with the
 * same height metadata rules as REST (errors as status code 2 with the SDK message; success carries the
 * `x-chain-block-height` response header), plus server reflection v1 and v1alpha. Unknown services and methods are
 * UNIMPLEMENTED with grpc-go's messages.
 *
 * Status framing, as grpc-go writes it:
 * - A response with no message is trailers-only: ONE HEADERS frame carrying `:status`, `content-type`, `grpc-status`
 *   and `grpc-message`, with END_STREAM set on it. Clients such as @grpc/grpc-js read the status only from a frame
 *   that ends the stream; a HEADERS frame without END_STREAM followed by an empty DATA frame is "Call ended without
 *   gRPC status" (13 INTERNAL) to them.
 * - `grpc-message` is percent-encoded by one encoder, `encodeGrpcMessage`, for every status, whoever produced it
 *   (connect-es writes `encodeURIComponent`; its value is decoded and re-encoded before it reaches the wire).
 */
export interface GrpcServerOptions {
  /** `grpc.max-recv-msg-size`: larger requests fail with RESOURCE_EXHAUSTED. */
  readonly maxRecvMsgBytes: number;
  /** `grpc.max-send-msg-size`. */
  readonly maxSendMsgBytes: number;
}

/** Every value of the height metadata key (HTTP/2 header names are lower case). */
const kHeightValues = createContextKey<readonly string[]>([], { description: "height metadata" });

function heightMetadata(rawHeaders: readonly string[], header: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === header) out.push(rawHeaders[i + 1]!);
  }
  return out;
}

const GRPC_CONTENT_TYPE = /^application\/grpc(?:$|[+;])/i;

/**
 * grpc-message percent-encoding (gRPC PROTOCOL-HTTP2 "Status-Message", grpc-go `encodeGrpcMessage`): the UTF-8
 * bytes outside printable ASCII 0x20-0x7E, and `%` itself, become `%XX` (upper-case hex); everything else is sent
 * as it is.
 */
export const encodeGrpcMessage = (m: string): string =>
  [...Buffer.from(m, "utf8")]
    .map((b) =>
      b >= 0x20 && b <= 0x7e && b !== 0x25
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

/** connect-es encodes grpc-message with encodeURIComponent: undo it (a value that does not decode stays as sent). */
function decodeConnectMessage(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

type NodeHeaders = Record<string, string | string[] | number | undefined>;

function reencode(h: unknown): void {
  if (h === null || typeof h !== "object" || Array.isArray(h)) return;
  const headers = h as NodeHeaders;
  const m = headers["grpc-message"];
  if (typeof m === "string") headers["grpc-message"] = encodeGrpcMessage(decodeConnectMessage(m));
}

/**
 * The response with grpc-message re-encoded by `encodeGrpcMessage` wherever connect-es sets it: in the trailers
 * (`addTrailers`) and in a headers-carried status (`writeHead`).
 */
function withGrpcMessageEncoding(res: http2.Http2ServerResponse): http2.Http2ServerResponse {
  const addTrailers = res.addTrailers.bind(res);
  res.addTrailers = (headers) => {
    reencode(headers);
    addTrailers(headers);
  };
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => http2.Http2ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    for (const a of args) reencode(a);
    return writeHead(...args);
  }) as typeof res.writeHead;
  return res;
}

/** A trailers-only response: one HEADERS frame with the status, END_STREAM set on it. */
export function trailersOnly(res: http2.Http2ServerResponse, code: number, message: string): void {
  const headers = {
    ":status": 200,
    "content-type": "application/grpc",
    "grpc-status": String(code),
    "grpc-message": encodeGrpcMessage(message),
  };
  if (res.stream.destroyed || res.stream.headersSent) {
    res.end();
    return;
  }
  res.stream.respond(headers, { endStream: true });
}

/** The names of all served services, reflection included. */
export function servedServiceNames(backend: QueryBackend): string[] {
  return [...backend.services.map((b) => b.service.typeName), ...REFLECTION_SERVICES.map((s) => s.typeName)];
}

/** The request handler of the gRPC server (usable with `http2.createServer`). */
export function grpcHandler(
  backend: QueryBackend,
  opts: GrpcServerOptions,
): (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void {
  const names = servedServiceNames(backend);
  const heightHeader = backendNames(backend).heightHeader;
  const index = new DescriptorIndex([
    ...backend.services.map((b) => b.service.file),
    ...REFLECTION_SERVICES.map((s) => s.file),
    ...wireAnyFiles(backend.namespace ?? "chain"),
  ]);
  const methodsOf = new Map<string, Set<string>>(
    backend.services.map((b) => [b.service.typeName, new Set(b.handlers.keys())]),
  );
  for (const s of REFLECTION_SERVICES) methodsOf.set(s.typeName, new Set(s.methods.map((m) => m.name)));

  const routes = (router: ConnectRouter): void => {
    for (const bound of backend.services) {
      for (const method of bound.service.methods) {
        const handler = bound.handlers.get(method.name);
        if (handler === undefined || method.methodKind !== "unary") continue;
        const impl = (request: never, context: HandlerContext) => {
          const outcome = runQuery(backend, handler, request, context.values.get(kHeightValues));
          if (!outcome.ok) throw new ConnectError(outcome.status.message, outcome.status.code);
          context.responseHeader.set(heightHeader, String(outcome.height));
          return outcome.response;
        };
        router.rpc(method as DescMethod, impl as never);
      }
    }
    router.rpc(REFLECTION_SERVICES[0].method.serverReflectionInfo, reflectionHandler(index, names, "v1"));
    router.rpc(REFLECTION_SERVICES[1].method.serverReflectionInfo, reflectionHandler(index, names, "v1alpha") as never);
  };

  const adapter = connectNodeAdapter({
    routes,
    readMaxBytes: opts.maxRecvMsgBytes,
    writeMaxBytes: opts.maxSendMsgBytes,
    contextValues: (req) => createContextValues().set(kHeightValues, heightMetadata(req.rawHeaders, heightHeader)),
    fallback: (req, res) => {
      const contentType = String(req.headers["content-type"] ?? "");
      if (!contentType.startsWith("application/grpc")) {
        res.writeHead(404);
        res.end();
        return;
      }
      const path = (req.url ?? "").replace(/^\//, "");
      const slash = path.lastIndexOf("/");
      const service = slash < 0 ? path : path.slice(0, slash);
      const method = slash < 0 ? "" : path.slice(slash + 1);
      const message = methodsOf.has(service)
        ? `unknown method ${method} for service ${service}`
        : `unknown service ${service}`;
      trailersOnly(res as http2.Http2ServerResponse, Code.Unimplemented, message);
    },
  });
  return (req, res) => {
    // grpc-go's transport checks the content type before anything else (grpcutil.ContentSubtype): anything but
    // `application/grpc`, `application/grpc+<codec>` or `application/grpc;<params>` (so also the Connect and
    // gRPC-web protocols connect-es would otherwise serve) is HTTP 415 with status INVALID_ARGUMENT.
    const contentType = String(req.headers["content-type"] ?? "");
    if (!GRPC_CONTENT_TYPE.test(contentType)) {
      res.writeHead(415, {
        "content-type": "application/grpc",
        "grpc-status": String(Code.InvalidArgument),
        "grpc-message": encodeGrpcMessage(`invalid gRPC request content-type ${JSON.stringify(contentType)}`),
      });
      res.end();
      return;
    }
    // A response finished before the request was read to its end (a message over the size limit, a malformed
    // one): like grpc-go, reset the stream with NO_ERROR after the status so the client stops sending; the unread
    // rest must not pile up in the session (Node then refuses every later stream with ENHANCE_YOUR_CALM).
    res.stream.once("wantTrailers", () => {
      setImmediate(() => {
        if (!req.complete && !res.stream.destroyed) res.stream.close(http2.constants.NGHTTP2_NO_ERROR);
      });
    });
    try {
      adapter(req, withGrpcMessageEncoding(res));
    } catch {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
}
