import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { standardBackend } from "../../test/kit/api.js";
import { QueryAuthorityRequestSchema } from "../gen/chain/upgrade/v1beta1/query_pb.js";
import type { QueryBackend } from "./backend.js";
import { parseHeightValues, queryState, runQuery } from "./height.js";

describe("height interceptor", () => {
  it("uses the value only when there is exactly one", () => {
    expect(parseHeightValues([])).toEqual({ ok: true, value: 0n });
    expect(parseHeightValues(["1", "2"])).toEqual({ ok: true, value: 0n });
    expect(parseHeightValues(["abc", "def"])).toEqual({ ok: true, value: 0n });
    expect(parseHeightValues(["4"])).toEqual({ ok: true, value: 4n });
    expect(parseHeightValues(["-0"])).toEqual({ ok: true, value: 0n });
    expect(parseHeightValues(["-2"]).ok).toBe(false);
  });

  it("resolves height 0 to the latest and asks the store for others", () => {
    const b = standardBackend();
    const latest = queryState(b, 0n);
    expect(latest.ok && latest.value.height).toBe(6);
    const three = queryState(b, 3n);
    expect(three.ok && three.value.ctx.height).toBe(3);
  });

  it("turns exceptions anywhere in a query into code 13", () => {
    const base = standardBackend();
    const exploding: QueryBackend = {
      ...base,
      stateAt: () => {
        throw new Error("disk gone");
      },
    };
    const handler = base.services[0]!.handlers.get("Authority")!;
    const req = create(QueryAuthorityRequestSchema);
    expect(runQuery(exploding, handler, req, [])).toEqual({
      ok: false,
      status: { code: 13, message: "internal error" },
      height: undefined,
    });
    const ok = runQuery(base, handler, req, []);
    expect(ok.ok && ok.height).toBe(6);
  });
});
