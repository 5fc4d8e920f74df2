import { create } from "@bufbuild/protobuf";
import { AnySchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { fromHex, toHex } from "../core/bytes.js";
import { errorText } from "../core/errors.js";
import {
  decodePlan,
  dueAt,
  encodePlan,
  isZeroTime,
  makePlan,
  shouldExecute,
  validateBasic,
  ZERO_TIME,
} from "./plan.js";

const validationText = (p: ReturnType<typeof makePlan>) => {
  const r = validateBasic(p);
  return r.ok ? "ok" : errorText(r.error);
};

describe("Plan binary encoding (docs/fidelity.md §2.1)", () => {
  it("{name:test, height:11} encodes like the reference, zero time always written", () => {
    expect(toHex(encodePlan(makePlan({ name: "test", height: 11n })))).toBe(
      "0a0474657374" + "120b088092b8c398feffffff01" + "180b",
    );
  });
  it("{name:all-good, height:123450000, info} encodes like the reference", () => {
    const p = makePlan({ name: "all-good", height: 123450000n, info: "some text here" });
    expect(toHex(encodePlan(p))).toBe(
      "0a08616c6c2d676f6f64" + "120b088092b8c398feffffff01" + "1890e5ee3a" + "220e736f6d6520746578742068657265",
    );
  });
  it("an explicit zero time encodes the same as an absent one", () => {
    const p = makePlan({ name: "test", height: 11n });
    p.time = create(TimestampSchema, { seconds: -62135596800n, nanos: 0 });
    expect(toHex(encodePlan(p))).toBe("0a0474657374120b088092b8c398feffffff01180b");
  });
  it("the zero plan still writes the time field", () => {
    expect(toHex(encodePlan(makePlan({})))).toBe("120b088092b8c398feffffff01");
  });
  it("decodes what it encodes", () => {
    const p = makePlan({ name: "all-good", height: 123450000n, info: "some text here" });
    const r = decodePlan(encodePlan(p));
    expect(r.ok && { name: r.value.name, height: r.value.height, info: r.value.info }).toEqual({
      name: "all-good",
      height: 123450000n,
      info: "some text here",
    });
    expect(r.ok && r.value.upgradedClientState).toBeUndefined();
    expect(r.ok && isZeroTime(r.value.time)).toBe(true);
  });
  it("malformed bytes and out-of-range timestamps are decode errors", () => {
    expect(decodePlan(fromHex("0a05")).ok).toBe(false);
    // time = {seconds: -62135596801}: before 0001-01-01
    const early = decodePlan(fromHex("120b08ff91b8c398feffffff01"));
    expect(early.ok ? "" : errorText(early.error)).toMatch(/^timestamp: .* before 0001-01-01$/);
    // time = {nanos: -1}
    const badNanos = decodePlan(fromHex("120b10ffffffffffffffffff01"));
    expect(badNanos.ok ? "" : errorText(badNanos.error)).toMatch(/nanos not in range \[0, 1e9\)$/);
  });
  // gogoproto's validateTimestamp: [0001-01-01, 10000-01-01), nanos in [0, 1e9), the Timestamp printed with %#v.
  const decodeError = (seconds: bigint, nanos: number) => {
    const p = makePlan({ name: "v2", height: 5n });
    p.time = create(TimestampSchema, { seconds, nanos });
    const r = decodePlan(encodePlan(p));
    return r.ok ? "ok" : errorText(r.error);
  };
  it("the time's range ends before 10000-01-01 and its nanos before 1e9, in gogoproto's words", () => {
    expect(decodeError(253402300799n, 999_999_999)).toBe("ok");
    expect(decodeError(253402300800n, 0)).toBe(
      "timestamp: &types.Timestamp{Seconds:253402300800, Nanos:0, XXX_NoUnkeyedLiteral:struct {}{}, XXX_unrecognized:[]uint8(nil), XXX_sizecache:0} after 10000-01-01",
    );
    expect(decodeError(0n, 1_000_000_000)).toBe(
      "timestamp: &types.Timestamp{Seconds:0, Nanos:1000000000, XXX_NoUnkeyedLiteral:struct {}{}, XXX_unrecognized:[]uint8(nil), XXX_sizecache:0}: nanos not in range [0, 1e9)",
    );
    expect(decodeError(-62135596801n, 0)).toBe(
      "timestamp: &types.Timestamp{Seconds:-62135596801, Nanos:0, XXX_NoUnkeyedLiteral:struct {}{}, XXX_unrecognized:[]uint8(nil), XXX_sizecache:0} before 0001-01-01",
    );
  });
  it("a stored plan without the time field decodes (gogoproto leaves the zero time)", () => {
    // name "v2", height 5: another encoder may skip the zero time the reference always writes.
    const r = decodePlan(fromHex("0a02763218" + "05"));
    expect(r.ok && { name: r.value.name, height: r.value.height, zero: isZeroTime(r.value.time) }).toEqual({
      name: "v2",
      height: 5n,
      zero: true,
    });
  });
});

describe("Plan.ValidateBasic (docs/fidelity.md §2.4)", () => {
  it("accepts a named plan with a positive height", () => {
    expect(validationText(makePlan({ name: "v2", height: 1n }))).toBe("ok");
  });
  it("rejects a non-zero time first, even when everything else is wrong", () => {
    const p = makePlan({});
    p.time = create(TimestampSchema, { seconds: 1n });
    p.upgradedClientState = create(AnySchema);
    expect(validationText(p)).toBe("time-based upgrades have been deprecated in the SDK: invalid request");
  });
  it("rejects a client state before checking the name", () => {
    const p = makePlan({});
    p.upgradedClientState = create(AnySchema);
    expect(validationText(p)).toBe("upgrade logic for IBC has been moved to the IBC module: invalid request");
  });
  it("rejects an empty name before checking the height", () => {
    expect(validationText(makePlan({ height: 0n }))).toBe("name cannot be empty: invalid request");
  });
  it("rejects a height of 0 or below", () => {
    expect(validationText(makePlan({ name: "v2", height: 0n }))).toBe("height must be greater than 0: invalid request");
    expect(validationText(makePlan({ name: "v2", height: -3n }))).toBe(
      "height must be greater than 0: invalid request",
    );
  });
  it("accepts any name content (spaces, slashes, unicode)", () => {
    expect(validationText(makePlan({ name: "v 2/β", height: 5n }))).toBe("ok");
  });
  it("a plan proposed with a time or a client state is refused (the scenario's plan.time, upgradedClientState)", () => {
    expect(validationText(makePlan({ name: "v2", height: 5n, time: { seconds: 1n, nanos: 0 } }))).toBe(
      "time-based upgrades have been deprecated in the SDK: invalid request",
    );
    expect(
      validationText(
        makePlan({ name: "v2", height: 5n, upgradedClientState: { typeUrl: "/t", value: Uint8Array.of(1) } }),
      ),
    ).toBe("upgrade logic for IBC has been moved to the IBC module: invalid request");
  });
  it("one nanosecond after the zero time is a time (Go's Time.IsZero reads seconds and nanoseconds)", () => {
    expect(validationText(makePlan({ name: "v2", height: 5n, time: { seconds: -62135596800n, nanos: 1 } }))).toBe(
      "time-based upgrades have been deprecated in the SDK: invalid request",
    );
  });
  it("the zero time given explicitly is still the zero time", () => {
    const p = makePlan({ name: "v2", height: 1n });
    p.time = ZERO_TIME;
    expect(validationText(p)).toBe("ok");
  });
});

describe("ShouldExecute and DueAt (docs/fidelity.md §2.4)", () => {
  it("is true from plan.height on, never for a non-positive height", () => {
    const p = makePlan({ name: "v2", height: 10n });
    expect(shouldExecute(p, 9)).toBe(false);
    expect(shouldExecute(p, 10)).toBe(true);
    expect(shouldExecute(p, 11n)).toBe(true);
    expect(shouldExecute(makePlan({ name: "v2", height: 0n }), 100)).toBe(false);
    expect(shouldExecute(makePlan({ name: "v2", height: -1n }), 100)).toBe(false);
  });
  it("DueAt renders `height: <h>`", () => {
    expect(dueAt(makePlan({ name: "v2", height: 10n }))).toBe("height: 10");
  });
});
