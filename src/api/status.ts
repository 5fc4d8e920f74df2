import { Code } from "@connectrpc/connect";
import { grpcMessage } from "../core/errors.js";
import type { HandlerError } from "./backend.js";
import { stringifyGo } from "./json.js";

/** grpc-go's code names by number (what `rpc error: code = <Name>` prints). */
export const GRPC_CODE_NAMES: readonly string[] = ["OK", ...Array.from({ length: 16 }, (_, i) => Code[i + 1]!)];

/** A gRPC status: the code and message a gRPC client sees, and what the gateway renders as the error body. */
export interface Status {
  readonly code: Code;
  readonly message: string;
}

/** A handler error as a status: SDK errors are code 2 Unknown with the gRPC message `codespace ... code ...: ...`. */
export function statusOf(e: HandlerError): Status {
  if (e.kind === "status") return { code: e.code, message: e.message };
  return { code: Code.Unknown, message: grpcMessage(e) };
}

const HTTP_OF_CODE: readonly number[] = [
  200, 408, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401,
];

/** grpc-gateway `HTTPStatusFromCode` (docs/node-api.md §2.8); codes outside 0..16 map to 500. */
export const httpStatusOf = (code: number): number => HTTP_OF_CODE[code] ?? 500;

/** The gateway error body: a compact `google.rpc.Status` `{"code":..,"message":"..","details":[]}`. */
export const errorBody = (s: Status): string =>
  stringifyGo({
    entries: [
      ["code", s.code],
      ["message", s.message],
      ["details", []],
    ],
  });

/** Message of code-13 errors for failures inside the simulator (thrown exceptions): never a crash. */
export const INTERNAL_ERROR_MESSAGE = "internal error";
