import { describe, expect, it } from "vitest";
import { BroadcastTxRequestSchema } from "../gen/chain/tx/v1beta1/service_pb.js";
import { gatewayBodyFromJson } from "./json-body.js";

const decode = (text: string) => {
  const r = gatewayBodyFromJson(BroadcastTxRequestSchema, text);
  return r.ok ? { bytes: Buffer.from(r.value.txBytes).toString("hex"), mode: r.value.mode } : r.error.message;
};

describe("gateway request bodies decode as the reference's jsonpb does", () => {
  it("takes the last of a repeated key", () => {
    expect(decode('{"tx_bytes":"AQ==","tx_bytes":"Ag=="}')).toEqual({ bytes: "02", mode: 0 });
    expect(decode('{"mode":"BROADCAST_MODE_SYNC","mode":"BROADCAST_MODE_ASYNC"}')).toEqual({ bytes: "", mode: 3 });
  });

  it("prefers the proto name over the JSON name whatever the order", () => {
    expect(decode('{"txBytes":"AQ==","tx_bytes":"Ag=="}')).toEqual({ bytes: "02", mode: 0 });
    expect(decode('{"tx_bytes":"Ag==","txBytes":"AQ=="}')).toEqual({ bytes: "02", mode: 0 });
    expect(decode('{"txBytes":"AQ=="}')).toEqual({ bytes: "01", mode: 0 });
  });

  it("turns malformed bodies into an error result, never a throw", () => {
    expect(decode("{")).toMatch(/JSON/);
    expect(decode('{"tx_bytes":1}')).toMatch(/tx_bytes/);
    expect(decode(`${"[".repeat(200_000)}${"]".repeat(200_000)}`)).toMatch(/./);
  });
});
