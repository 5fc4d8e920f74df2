import { describe, expect, it } from "vitest";
import { plain, SdkErrors, wrap } from "../core/errors.js";
import { statusError } from "./backend.js";
import { errorBody, GRPC_CODE_NAMES, httpStatusOf, statusOf } from "./status.js";

describe("gRPC status → HTTP", () => {
  it("maps every code like grpc-gateway", () => {
    const expected = [200, 408, 500, 400, 504, 404, 409, 403, 429, 400, 409, 400, 501, 500, 503, 500, 401];
    expect(expected.map((_, code) => httpStatusOf(code))).toEqual(expected);
    expect(httpStatusOf(17)).toBe(500);
    expect(httpStatusOf(-1)).toBe(500);
  });
  it("renders the google.rpc.Status body with details always present, Go-escaped", () => {
    expect(errorBody({ code: 12, message: "Not Implemented" })).toBe(
      '{"code":12,"message":"Not Implemented","details":[]}',
    );
    expect(errorBody({ code: 2, message: "a<b>&" })).toBe(
      '{"code":2,"message":"a\\u003cb\\u003e\\u0026","details":[]}',
    );
  });
  it("makes SDK and plain errors code 2 and keeps explicit statuses", () => {
    expect(statusOf(wrap(SdkErrors.ErrNotFound, "x"))).toEqual({
      code: 2,
      message: "codespace sdk code 38: not found: x",
    });
    expect(statusOf(plain("boom"))).toEqual({ code: 2, message: "boom" });
    expect(statusOf(statusError(3, "bad"))).toEqual({ code: 3, message: "bad" });
  });
});

describe("gRPC code names", () => {
  it("are grpc-go's codes.Code strings, indexed by number (connect's Code has no OK)", () => {
    expect(GRPC_CODE_NAMES).toEqual([
      "OK",
      "Canceled",
      "Unknown",
      "InvalidArgument",
      "DeadlineExceeded",
      "NotFound",
      "AlreadyExists",
      "PermissionDenied",
      "ResourceExhausted",
      "FailedPrecondition",
      "Aborted",
      "OutOfRange",
      "Unimplemented",
      "Internal",
      "Unavailable",
      "DataLoss",
      "Unauthenticated",
    ]);
  });
});
