import {
  create,
  type DescMessage,
  type DescMethodUnary,
  fromJson,
  getOption,
  hasOption,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import { ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { HEIGHT_HEADER } from "../api/height.js";
import { NODE_JSON } from "../api/node-backend.js";
import { http } from "../gen/google/api/annotations_pb.js";

/** A failed call: a gRPC status from the node, or a transport failure (nothing answered as expected). */
export type CallError =
  | { readonly kind: "status"; readonly code: number; readonly message: string }
  | { readonly kind: "transport"; readonly message: string };

export type CallResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: CallError };

/** How the CLI reaches a node: the REST gateway or the gRPC server; the same query methods either way. */
export interface QueryTransport {
  call<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>,
    request: MessageInitShape<I>,
    height: bigint | undefined,
  ): Promise<CallResult<MessageShape<O>>>;
}

/** The GET path of a method for a request: path variables from the request, other set scalar fields as query. */
export function restPath<I extends DescMessage>(
  method: DescMethodUnary<I, DescMessage>,
  request: MessageShape<I>,
): string | undefined {
  if (!hasOption(method, http)) return undefined;
  const rule = getOption(method, http);
  if (rule.pattern.case !== "get") return undefined;
  const r = reflect(method.input, request);
  const bound = new Set<string>();
  const path = rule.pattern.value.replace(/\{([^}=]+)(=[^}]*)?\}/g, (_m, name: string) => {
    bound.add(name);
    const f = method.input.fields.find((x) => x.name === name);
    return encodeURIComponent(f === undefined ? "" : String(r.get(f)));
  });
  const query: string[] = [];
  for (const f of method.input.fields) {
    if (bound.has(f.name) || f.fieldKind !== "scalar" || !r.isSet(f)) continue;
    query.push(`${encodeURIComponent(f.name)}=${encodeURIComponent(String(r.get(f)))}`);
  }
  return query.length === 0 ? path : `${path}?${query.join("&")}`;
}

/** Go's `*url.Error` text of a failed GET, e.g. `Get "http://localhost:1317/...": dial tcp ...: connection refused`. */
function fetchFailure(url: string, e: unknown): string {
  const cause = e instanceof Error && e.cause instanceof Error ? e.cause : e;
  const code = (cause as { code?: string } | undefined)?.code;
  const target = new URL(url);
  if (code === "ECONNREFUSED") return `Get "${url}": dial tcp ${target.host}: connect: connection refused`;
  return `Get "${url}": ${cause instanceof Error ? cause.message : String(cause)}`;
}

/** REST: `GET <node><path>` with the height header; error bodies are `google.rpc.Status` JSON. */
export function restTransport(nodeUrl: string): QueryTransport {
  const base = nodeUrl.replace(/\/+$/, "");
  return {
    async call(method, init, height) {
      const path = restPath(method, create(method.input, init));
      if (path === undefined)
        return { ok: false, error: { kind: "transport", message: `${method.name}: no REST route` } };
      const url = base + path;
      let res: Response;
      let text: string;
      try {
        res = await fetch(url, {
          headers: height === undefined ? {} : { [HEIGHT_HEADER]: String(height) },
          signal: AbortSignal.timeout(30_000),
        });
        text = await res.text();
      } catch (e) {
        return { ok: false, error: { kind: "transport", message: fetchFailure(url, e) } };
      }
      let json: JsonValue;
      try {
        json = JSON.parse(text) as JsonValue;
      } catch {
        return {
          ok: false,
          error: { kind: "transport", message: `unexpected response from ${url}: HTTP ${res.status}: ${text.trim()}` },
        };
      }
      if (res.status !== 200) {
        const s = json as { code?: unknown; message?: unknown };
        return {
          ok: false,
          error:
            typeof s.code === "number" && typeof s.message === "string"
              ? { kind: "status", code: s.code, message: s.message }
              : { kind: "transport", message: `unexpected response from ${url}: HTTP ${res.status}: ${text.trim()}` },
        };
      }
      try {
        return {
          ok: true,
          value: fromJson(method.output, json, { ignoreUnknownFields: true, registry: NODE_JSON.registry }),
        };
      } catch (e) {
        return { ok: false, error: { kind: "transport", message: `bad response from ${url}: ${String(e)}` } };
      }
    },
  };
}

/** gRPC (h2c) to `host:port`, the height as `x-chain-block-height` metadata. */
export function grpcTransport(address: string): QueryTransport {
  const transport = createGrpcTransport({ baseUrl: `http://${address}` });
  return {
    async call(method, init, height) {
      const client = createClient(method.parent, transport) as unknown as Record<
        string,
        (req: unknown, opts: unknown) => Promise<unknown>
      >;
      try {
        const res = await client[method.localName]!(init, {
          headers: height === undefined ? {} : { [HEIGHT_HEADER]: String(height) },
          timeoutMs: 30_000,
        });
        return { ok: true, value: res as MessageShape<typeof method.output> };
      } catch (e) {
        const c = ConnectError.from(e);
        return { ok: false, error: { kind: "status", code: c.code, message: c.rawMessage } };
      }
    },
  };
}
