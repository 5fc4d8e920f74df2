import type { Message } from "@bufbuild/protobuf";
import { Code } from "@connectrpc/connect";
import type { Ctx } from "../core/context.js";
import { err, grpcMessage, ok, type Result, SdkErrors, wrap } from "../core/errors.js";
import { parseGoInt, quoteLatin1 } from "../core/go/strconv.js";
import { backendNames, type HandlerError, type QueryBackend } from "./backend.js";
import { INTERNAL_ERROR_MESSAGE, type Status, statusOf } from "./status.js";

/** The request header / gRPC metadata key that selects the state version. */
export const HEIGHT_HEADER = "x-chain-block-height";
/** The REST request header forwarded under the same metadata key (grpc-gateway strips `Grpc-Metadata-`). */
export const GRPC_METADATA_HEIGHT_HEADER = "grpc-metadata-x-chain-block-height";

const sdkStatus = (e: ReturnType<typeof wrap>): Status => ({ code: Code.Unknown, message: grpcMessage(e) });

/**
 * The height interceptor (docs/node-api.md §2.6; reference baseapp/grpcserver.go): the header is honoured only when it has
 * exactly one value; it is parsed as a base-10 int64 (values are latin1 strings as node delivers them, so the Go
 * `%q` quoting of the error shows their raw bytes); negative heights fail. 0 means latest.
 */
export function parseHeightValues(values: readonly string[], header = HEIGHT_HEADER): Result<bigint, Status> {
  if (values.length !== 1) return ok(0n);
  const parsed = parseGoInt(values[0]!, 10, 64, quoteLatin1);
  if (!parsed.ok) {
    return err(
      sdkStatus(
        wrap(
          SdkErrors.ErrInvalidRequest,
          `Baseapp.RegisterGRPCServer: invalid height header ${JSON.stringify(header)}: ${parsed.error.text}`,
        ),
      ),
    );
  }
  if (parsed.value < 0n) {
    return err(
      sdkStatus(wrap(SdkErrors.ErrInvalidRequest, "cannot query with height < 0; please provide a valid height")),
    );
  }
  return ok(parsed.value);
}

/** A resolved query context: the state to read and the height it is at (the response header value). */
export interface QueryState {
  readonly height: number;
  readonly ctx: Ctx;
}

/**
 * CreateQueryContext (reference baseapp/abci.go): not ready (no block) → future height → load the version (pruned →
 * `failed to load state at height <h>; <store error> (latest height: <L>)`). Height 0 is the latest.
 */
export function queryState(backend: QueryBackend, requested: bigint): Result<QueryState, Status> {
  const r = queryContext(backend, requested);
  return r.ok ? r : err(sdkStatus(r.error));
}

/** CreateQueryContext with its errors as SDK errors (what ABCI Query reports as code, codespace and log). */
export function queryContext(backend: QueryBackend, requested: bigint): Result<QueryState, ReturnType<typeof wrap>> {
  const latest = backend.latestHeight();
  if (latest === 0)
    return err(wrap(SdkErrors.ErrInvalidHeight, `${backend.appName} is not ready; please wait for first block`));
  if (requested > BigInt(latest))
    return err(
      wrap(SdkErrors.ErrInvalidHeight, "cannot query with height in the future; please provide a valid height"),
    );
  const height = requested === 0n ? latest : Number(requested);
  const state = backend.stateAt(height);
  if (!state.ok)
    return err(
      wrap(
        SdkErrors.ErrNotFound,
        `failed to load state at height ${height}; ${state.error} (latest height: ${latest})`,
      ),
    );
  return ok({ height, ctx: state.value });
}

/** The outcome of one query: a response at a height, or a status (with the height when the handler itself failed). */
export type QueryOutcome<R = Message> =
  | { readonly ok: true; readonly response: R; readonly height: number }
  | { readonly ok: false; readonly status: Status; readonly height: number | undefined };

/**
 * Runs one query as the reference's gRPC path does: height interceptor, query context, then the handler. A handler
 * that throws is an internal error (code 13), never a crash. The handler's answer is a message (a UnaryHandler) or
 * any other form of it (the REST gateway's rendered text).
 */
export function runQuery<R = Message>(
  backend: QueryBackend,
  handler: (ctx: Ctx, request: Message) => Result<R, HandlerError>,
  request: Message,
  heightValues: readonly string[],
): QueryOutcome<R> {
  let height: number | undefined;
  try {
    const requested = parseHeightValues(heightValues, backendNames(backend).heightHeader);
    if (!requested.ok) return { ok: false, status: requested.error, height: undefined };
    const state = queryState(backend, requested.value);
    if (!state.ok) return { ok: false, status: state.error, height: undefined };
    height = state.value.height;
    const res = handler(state.value.ctx, request);
    if (!res.ok) return { ok: false, status: statusOf(res.error), height };
    return { ok: true, response: res.value, height };
  } catch {
    return { ok: false, status: { code: Code.Internal, message: INTERNAL_ERROR_MESSAGE }, height };
  }
}
