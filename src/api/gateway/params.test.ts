import { create } from "@bufbuild/protobuf";
import { FieldDescriptorProto_Type, FieldDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  GetBlockByHeightRequestSchema,
  GetSyncingResponseSchema,
} from "../../gen/chain/base/tendermint/v1beta1/query_pb.js";
import { BlockIDSchema, DataSchema, PartSetHeaderSchema } from "../../gen/chain/base/tendermint/v1beta1/types_pb.js";
import {
  QueryAppliedPlanRequestSchema,
  QueryModuleVersionsRequestSchema,
} from "../../gen/chain/upgrade/v1beta1/query_pb.js";
import { goPointerType, hasQueryParams, populateQuery, setPathParam } from "./params.js";

const values = (o: Record<string, string[]>) => new Map(Object.entries(o));

describe("path parameters", () => {
  it("converts int64 with Go base-0 syntax and reports the bare strconv error", () => {
    const m = create(GetBlockByHeightRequestSchema);
    expect(setPathParam(m, GetBlockByHeightRequestSchema, "height", "0x10")).toEqual({ ok: true, value: undefined });
    expect(m.height).toBe(16n);
    expect(setPathParam(m, GetBlockByHeightRequestSchema, "height", "abc")).toEqual({
      ok: false,
      error: 'strconv.ParseInt: parsing "abc": invalid syntax',
    });
  });
  it("decodes string parameters from UTF-8 bytes", () => {
    const m = create(QueryAppliedPlanRequestSchema);
    setPathParam(m, QueryAppliedPlanRequestSchema, "name", "caf\u00c3\u00a9");
    expect(m.name).toBe("café");
  });
});

describe("query parameters", () => {
  it("converts uint32, bytes, bool and repeated bytes", () => {
    const p = create(PartSetHeaderSchema);
    expect(populateQuery(p, PartSetHeaderSchema, values({ total: ["7", "8"], hash: ["AQI="] }), []).ok).toBe(true);
    expect([p.total, [...p.hash]]).toEqual([7, [1, 2]]);
    expect(populateQuery(p, PartSetHeaderSchema, values({ total: ["4294967296"] }), [])).toEqual({
      ok: false,
      error: 'strconv.ParseUint: parsing "4294967296": value out of range',
    });
    expect(populateQuery(p, PartSetHeaderSchema, values({ hash: ["!!"] }), [])).toEqual({
      ok: false,
      error: "illegal base64 data at input byte 0",
    });
    const s = create(GetSyncingResponseSchema);
    expect(populateQuery(s, GetSyncingResponseSchema, values({ syncing: ["T"] }), []).ok).toBe(true);
    expect(s.syncing).toBe(true);
    expect(populateQuery(s, GetSyncingResponseSchema, values({ syncing: ["yes"] }), [])).toEqual({
      ok: false,
      error: 'strconv.ParseBool: parsing "yes": invalid syntax',
    });
    const d = create(DataSchema);
    expect(populateQuery(d, DataSchema, values({ txs: ["AQ==", "Ag=="] }), []).ok).toBe(true);
    expect(d.txs.map((t) => [...t])).toEqual([[1], [2]]);
  });

  it("walks nested messages by proto or JSON names and reports Go's path errors", () => {
    const b = create(BlockIDSchema);
    expect(populateQuery(b, BlockIDSchema, values({ "part_set_header.total": ["3"] }), []).ok).toBe(true);
    expect(b.partSetHeader?.total).toBe(3);
    expect(populateQuery(b, BlockIDSchema, values({ "partSetHeader.total": ["4"] }), []).ok).toBe(true);
    expect(b.partSetHeader?.total).toBe(4);
    expect(populateQuery(b, BlockIDSchema, values({ "hash.x": ["1"] }), [])).toEqual({
      ok: false,
      error: "unexpected type []uint8 in *cmtservice.BlockID",
    });
    expect(populateQuery(b, BlockIDSchema, values({ part_set_header: ["x"] }), [])).toEqual({
      ok: false,
      error: "field type *cmtservice.PartSetHeader is not supported in query parameters",
    });
    expect(populateQuery(b, BlockIDSchema, values({ nope: ["1"], "nope.deeper": ["2"] }), []).ok).toBe(true);
  });

  it("takes enum names or defined numbers", () => {
    const f = create(FieldDescriptorProtoSchema);
    expect(populateQuery(f, FieldDescriptorProtoSchema, values({ type: ["TYPE_INT64"] }), []).ok).toBe(true);
    expect(f.type).toBe(FieldDescriptorProto_Type.INT64);
    expect(populateQuery(f, FieldDescriptorProtoSchema, values({ type: ["0x9"] }), []).ok).toBe(true);
    expect(f.type).toBe(FieldDescriptorProto_Type.STRING);
    expect(populateQuery(f, FieldDescriptorProtoSchema, values({ type: ["99"] }), [])).toEqual({
      ok: false,
      error: "99 is not valid",
    });
  });

  it("ignores keys under path-bound fields and prefers the proto spelling", () => {
    const h = create(GetBlockByHeightRequestSchema);
    expect(populateQuery(h, GetBlockByHeightRequestSchema, values({ height: ["5"] }), [["height"]]).ok).toBe(true);
    expect(h.height).toBe(0n);
    const m = create(QueryModuleVersionsRequestSchema);
    populateQuery(m, QueryModuleVersionsRequestSchema, values({ module_name: ["a"], moduleName: ["b"] }), []);
    expect(m.moduleName).toBe("a");
  });

  it("knows which requests read the query string", () => {
    expect(hasQueryParams(QueryModuleVersionsRequestSchema, [])).toBe(true);
    expect(hasQueryParams(QueryAppliedPlanRequestSchema, ["name"])).toBe(false);
    expect(hasQueryParams(GetBlockByHeightRequestSchema, ["height"])).toBe(false);
    expect(goPointerType(QueryModuleVersionsRequestSchema)).toBe("*types.QueryModuleVersionsRequest");
  });
});
