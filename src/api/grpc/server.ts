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
import type { QueryBackend } from "../backend.js";
import { HEIGHT_HEADER, runQuery } from "../height.js";
import { DescriptorIndex } from "./descriptor-index.js";
import { REFLECTION_SERVICES, reflectionHandler } from "./reflection.js";

/**
 * The gRPC server (node-api.md §5): h2c (HTTP/2 prior knowledge, no TLS) serving every bound query service, with the
 * same height metadata rules as REST (errors as status code 2 with the SDK message; success carries the
 * `x-chain-block-height` response header), plus server reflection v1 and v1alpha. Unknown services and methods are
 * UNIMPLEMENTED with grpc-go's messages.
 */
export interface GrpcServerOptions {
  /** `grpc.max-recv-msg-size`: larger requests fail with RESOURCE_EXHAUSTED. */
  readonly maxRecvMsgBytes: number;
  /** `grpc.max-send-msg-size`. */
  readonly maxSendMsgBytes: number;
}

/** Every value of the height metadata key (HTTP/2 header names are lower case). */
const kHeightValues = createContextKey<readonly string[]>([], { description: HEIGHT_HEADER });

function heightMetadata(rawHeaders: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === HEIGHT_HEADER) out.push(rawHeaders[i + 1]!);
  }
  return out;
}

const GRPC_CONTENT_TYPE = /^application\/grpc(?:$|[+;])/i;

/** grpc-message percent-encoding: bytes outside printable ASCII, and `%`. */
const encodeGrpcMessage = (m: string): string =>
  [...Buffer.from(m, "utf8")]
    .map((b) =>
      b >= 0x20 && b <= 0x7e && b !== 0x25
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

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
  const index = new DescriptorIndex([
    ...backend.services.map((b) => b.service.file),
    ...REFLECTION_SERVICES.map((s) => s.file),
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
          if (!outcome.ok) throw new ConnectError(outcome.status.message, outcome.status.code as Code);
          context.responseHeader.set(HEIGHT_HEADER, String(outcome.height));
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
    contextValues: (req) => createContextValues().set(kHeightValues, heightMetadata(req.rawHeaders)),
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
      res.writeHead(200, {
        "content-type": "application/grpc",
        "grpc-status": String(Code.Unimplemented),
        "grpc-message": encodeGrpcMessage(message),
      });
      res.end();
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
      adapter(req, res);
    } catch {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }
  };
}
