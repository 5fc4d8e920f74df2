import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { Code as GrpcCode } from "@connectrpc/connect";
import { base64 } from "@scure/base";
import { type ChainError, errorText, type RegisteredError, SdkErrors, wrap } from "../../core/errors.js";
import type { HandlerError, QueryBackend } from "../backend.js";
import { queryContext } from "../height.js";
import { GRPC_CODE_NAMES } from "../status.js";

/**
 * ABCI Query for a gRPC method (reference baseapp `Query` → `handleQueryGRPC`): the path is the method's full name
 * (`/chain.upgrade.v1beta1.Query/CurrentPlan`), the data its protobuf request. The same bound handlers and the same
 * query context (height rules, pruning) as gRPC and REST; only the error mapping is ABCI's:
 *
 * - context errors (not ready, future height, pruned state) are the SDK error itself (code 26, 38, ...);
 * - a handler's error goes through `gRPCErrorToSDKError`: a gRPC status becomes `rpc error: code = <Name> desc =
 *   <message>` wrapped in key not found (NotFound), invalid request (InvalidArgument, FailedPrecondition),
 *   unauthorized (Unauthenticated) or unknown request (anything else, SDK errors included); a request that does
 *   not decode is invalid request;
 * - an unregistered path is `unknown query path: unknown request` (code 6).
 * Height 0 means the latest height, and the response carries the resolved height.
 */
export interface AbciQueryResponse {
  readonly code: number;
  readonly codespace: string;
  readonly log: string;
  readonly value: Uint8Array | undefined;
  readonly height: number;
}

const ErrKeyNotFound: RegisteredError = Object.freeze({ codespace: "sdk", code: 22, description: "key not found" });

const failure = (e: ChainError, height = 0): AbciQueryResponse => ({
  code: e.kind === "sdk" ? e.base.code : 1,
  codespace: e.kind === "sdk" ? e.base.codespace : "undefined",
  log: errorText(e),
  value: undefined,
  height,
});

function grpcErrorToSdkError(e: HandlerError): ChainError {
  if (e.kind === "status") {
    const text = `rpc error: code = ${GRPC_CODE_NAMES[e.code] ?? `Code(${e.code})`} desc = ${e.message}`;
    switch (e.code) {
      case GrpcCode.NotFound:
        return wrap(ErrKeyNotFound, text);
      case GrpcCode.InvalidArgument:
      case GrpcCode.FailedPrecondition:
        return wrap(SdkErrors.ErrInvalidRequest, text);
      case GrpcCode.Unauthenticated:
        return wrap(SdkErrors.ErrUnauthorized, text);
      default:
        return wrap(SdkErrors.ErrUnknownRequest, text);
    }
  }
  // A plain Go error is not a gRPC status: invalid request. SDK errors carry status Unknown: unknown request.
  return e.kind === "plain"
    ? wrap(SdkErrors.ErrInvalidRequest, e.message)
    : wrap(SdkErrors.ErrUnknownRequest, errorText(e));
}

export function abciQuery(backend: QueryBackend, path: string, data: Uint8Array, height: bigint): AbciQueryResponse {
  const m = /^\/([A-Za-z0-9_.]+)\/([A-Za-z0-9_]+)$/.exec(path);
  const bound = m === null ? undefined : backend.services.find((b) => b.service.typeName === m[1]);
  const method = bound?.service.methods.find((x) => x.name === m![2]);
  const handler = method === undefined ? undefined : bound!.handlers.get(method.name);
  if (method === undefined || handler === undefined)
    return failure(wrap(SdkErrors.ErrUnknownRequest, path === "" ? "no query path provided" : "unknown query path"));
  if (height < 0n)
    return failure(wrap(SdkErrors.ErrInvalidRequest, "cannot query with height < 0; please provide a valid height"));
  const state = queryContext(backend, height);
  if (!state.ok) return failure(state.error);
  const resolved = state.value.height;
  let request: ReturnType<typeof fromBinary>;
  try {
    request = fromBinary(method.input, data);
  } catch (e) {
    return failure(wrap(SdkErrors.ErrInvalidRequest, e instanceof Error ? e.message : String(e)), resolved);
  }
  try {
    const r = handler(state.value.ctx, request);
    if (!r.ok) return failure(grpcErrorToSdkError(r.error), resolved);
    return { code: 0, codespace: "", log: "", value: toBinary(method.output, r.value), height: resolved };
  } catch {
    return failure(wrap(SdkErrors.ErrLogic, "internal error"), resolved);
  }
}

/** The `response` object of the abci_query result, as CometBFT's JSON renders ResponseQuery. */
export const abciQueryJson = (r: AbciQueryResponse) => ({
  code: r.code,
  log: r.log,
  info: "",
  index: "0",
  key: null,
  value: r.value === undefined || r.value.length === 0 ? null : base64.encode(r.value),
  proofOps: null,
  height: String(r.height),
  codespace: r.codespace,
});
