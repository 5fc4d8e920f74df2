import { Code } from "@connectrpc/connect";
import { errorBody, httpStatusOf, INTERNAL_ERROR_MESSAGE, type Status } from "../status.js";

/**
 * The gateway's responses (grpc-gateway v1.16 runtime/errors.go `DefaultHTTPError`, and Go net/http's own answers):
 * a status, headers with the casing to emit, a body, and whether to close the connection. An error is its
 * `google.rpc.Status` JSON body with the HTTP status its gRPC code maps to (`HTTPStatusFromCode`).
 */
export type HeaderList = readonly (readonly [string, string])[];

export interface GatewayResponse {
  readonly status: number;
  /** Header names with the casing to emit. */
  readonly headers: HeaderList;
  readonly body: string;
  /** Close the connection after this response. */
  readonly close: boolean;
}

export const JSON_CT: readonly [string, string] = ["Content-Type", "application/json"];
export const TEXT_CT: readonly [string, string] = ["Content-Type", "text/plain; charset=utf-8"];

export const respond = (status: number, headers: HeaderList, body: string, close = false): GatewayResponse => ({
  status,
  headers,
  body,
  close,
});

/** A gateway error response: status → HTTP code, `google.rpc.Status` body. */
export const statusResponse = (s: Status, headers: HeaderList, close = false): GatewayResponse =>
  respond(httpStatusOf(s.code), [JSON_CT, ...headers], errorBody(s), close);

/** Go's own answer to a request target it cannot parse (before any handler). */
export const BAD_REQUEST = respond(400, [TEXT_CT, ["Connection", "close"]], "400 Bad Request", true);

/** An unexpected failure: 500 with code 13 and the SDK's message. */
export const internalResponse = (): GatewayResponse =>
  statusResponse({ code: Code.Internal, message: INTERNAL_ERROR_MESSAGE }, []);

/** The mux's answer when no route matches (or a route matches another method without the form fallback). */
export const NOT_IMPLEMENTED: Status = { code: Code.Unimplemented, message: "Not Implemented" };
