import type { DescMethodUnary, DescService, Message, MessageShape } from "@bufbuild/protobuf";
import type { Code } from "@connectrpc/connect";
import type { Ctx } from "../core/context.js";
import type { ChainError, Result } from "../core/errors.js";
import { type Namespace, type NamespaceNames, namesOf } from "../core/namespace.js";

/**
 * The node behind the API servers. Both the REST gateway and the gRPC server read it through this interface only:
 * they resolve the requested height (docs/node-api.md §2.6), ask for the state as of that height, and run a bound query
 * handler on it.
 */
export interface QueryBackend {
  /** App-name constant of the "not ready" error (`<App> is not ready; please wait for first block`). */
  readonly appName: string;
  /** Latest committed height; 0 = no block yet. */
  latestHeight(): number;
  /** Earliest height whose state is still loadable (informational; `stateAt` is authoritative). */
  earliestHeight(): number;
  /**
   * A read-only context over the state as of `height` (1 <= height <= latest). The error is the store's text, e.g.
   * `version mismatch on immutable IAVL tree; version does not exist. ...`, for a pruned height.
   */
  stateAt(height: number): Result<Ctx, string>;
  /** The query services served over REST (routes from their http rules) and gRPC. */
  readonly services: readonly BoundService[];
  /** The wire namespace the services speak (src/api/wire.ts); absent = `chain`. Names the height header. */
  readonly namespace?: Namespace;
}

/** The names a backend's wire uses. */
export const backendNames = (b: QueryBackend): NamespaceNames => namesOf(b.namespace ?? "chain");

/**
 * A gRPC status chosen by a handler itself (the reference's `status.Error(codes.X, msg)`), e.g. InvalidArgument for a
 * block height beyond the chain. SDK errors (ChainError) are always code 2 Unknown with `grpcMessage(err)`.
 */
export interface GrpcStatusError {
  readonly kind: "status";
  readonly code: Code;
  readonly message: string;
}

export type HandlerError = ChainError | GrpcStatusError;

export const statusError = (code: Code, message: string): GrpcStatusError => ({ kind: "status", code, message });

/** A unary query handler over the state at the resolved height. Expected failures are results, never throws. */
export type UnaryHandler = (ctx: Ctx, request: Message) => Result<Message, HandlerError>;

/**
 * A response as protobuf bytes: the encoding of the method's output message or, with `field`, of the output message
 * whose one record is its message field number `field` holding `bytes` (a stored message answered as a response's
 * field, without copying it into a new buffer).
 */
export interface EncodedResponse {
  readonly bytes: Uint8Array;
  readonly field?: number;
}

/**
 * A unary query handler answering with its response's protobuf encoding, for readers that render the bytes without
 * decoding them (the REST gateway's transcoder). Decoding its answer gives the method's UnaryHandler's answer; its
 * errors are the same.
 */
export type EncodedHandler = (ctx: Ctx, request: Message) => Result<EncodedResponse, HandlerError>;

/** A generated service with a handler for each of its unary methods (keyed by the method's proto name). */
export interface BoundService {
  readonly service: DescService;
  readonly handlers: ReadonlyMap<string, UnaryHandler>;
  /** Methods that also answer encoded (keyed like `handlers`); absent on a service that has none. */
  readonly encoded?: ReadonlyMap<string, EncodedHandler>;
}

/** Handler functions for every unary method of a generated service, keyed like the generated `method` record. */
export type ServiceHandlers<S extends DescService> = {
  [K in keyof S["method"]]: S["method"][K] extends DescMethodUnary<infer I, infer O>
    ? (ctx: Ctx, request: MessageShape<I>) => Result<MessageShape<O>, HandlerError>
    : never;
};

/**
 * Binds handler functions to a generated service: `bindService(Query, newQueryServer(keeper))`. Methods are looked up
 * by their generated local name; streaming methods are not supported (query services are unary).
 */
export function bindService<S extends DescService>(service: S, impl: ServiceHandlers<S>): BoundService {
  const handlers = new Map<string, UnaryHandler>();
  const byLocal = impl as unknown as Record<string, (ctx: Ctx, req: Message) => Result<Message, HandlerError>>;
  for (const m of service.methods) {
    const fn = byLocal[m.localName];
    if (m.methodKind !== "unary" || fn === undefined) continue;
    handlers.set(m.name, (ctx, req) => fn.call(impl, ctx, req));
  }
  return { service, handlers };
}
