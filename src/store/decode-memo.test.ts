import { create, equals, fromBinary, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, timestampFromMs } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProposalSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { DecodeMemo } from "./decode-memo.js";

const text = fc.string({ maxLength: 40, unit: "binary" });
const proposal = fc
  .record({
    id: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
    status: fc.integer({ min: 0, max: 5 }),
    title: text,
    summary: text,
    metadata: text,
    proposer: text,
    failedReason: text,
    expedited: fc.boolean(),
    messages: fc.array(fc.record({ typeUrl: text, value: fc.uint8Array({ maxLength: 24 }) }), { maxLength: 3 }),
    totalDeposit: fc.array(fc.record({ denom: text, amount: text }), { maxLength: 3 }),
    submitMs: fc.option(fc.integer({ min: 0, max: 2 ** 40 }), { nil: undefined }),
    tally: fc.option(fc.record({ yesCount: text, noCount: text }), { nil: undefined }),
  })
  .map(({ submitMs, tally, ...p }) =>
    create(ProposalSchema, {
      ...p,
      ...(submitMs === undefined ? {} : { submitTime: timestampFromMs(submitMs) }),
      ...(tally === undefined ? {} : { finalTallyResult: tally }),
    }),
  );

describe("DecodeMemo", () => {
  it("gives what fromBinary gives, as a fresh copy on every call, cold and warm", () => {
    const memo = new DecodeMemo(ProposalSchema);
    fc.assert(
      fc.property(proposal, (p) => {
        const bytes = toBinary(ProposalSchema, p);
        const expected = fromBinary(ProposalSchema, bytes);
        const cold = memo.decode(bytes);
        const warm = memo.decode(bytes.slice());
        expect(cold).toStrictEqual(expected);
        expect(warm).toStrictEqual(expected);
        expect(Object.keys(warm)).toEqual(Object.keys(expected));
        expect(equals(ProposalSchema, warm, expected)).toBe(true);
        // A caller's changes stay its own: the next read is as stored.
        warm.title = `${warm.title}!`;
        warm.totalDeposit.push({ $typeName: "chain.base.v1beta1.Coin", denom: "x", amount: "1" });
        for (const m of warm.messages) m.value.fill(0xee);
        if (warm.submitTime !== undefined) warm.submitTime.seconds += 1n;
        expect(memo.decode(bytes)).toStrictEqual(expected);
        expect(toBinary(ProposalSchema, memo.decode(bytes))).toEqual(bytes);
      }),
    );
  });

  it("decodes every time when disabled, and never memoises a message that is not plain data (proto2)", () => {
    const off = new DecodeMemo(ProposalSchema);
    off.enabled = false;
    const bytes = toBinary(ProposalSchema, create(ProposalSchema, { id: 7n, title: "t" }));
    expect(off.decode(bytes)).toStrictEqual(fromBinary(ProposalSchema, bytes));
    // proto2 messages keep defaults on a prototype chain: decoded as they are, each time.
    const proto2 = new DecodeMemo(FileDescriptorProtoSchema);
    const fd = toBinary(FileDescriptorProtoSchema, create(FileDescriptorProtoSchema, { name: "a.proto" }));
    const a = proto2.decode(fd);
    const b = proto2.decode(fd);
    expect(a).not.toBe(b);
    expect(Object.getPrototypeOf(a)).toBe(Object.getPrototypeOf(fromBinary(FileDescriptorProtoSchema, fd)));
    expect(equals(FileDescriptorProtoSchema, a, b)).toBe(true);
  });

  it("fails like fromBinary on malformed bytes, and memoises nothing then", () => {
    const memo = new DecodeMemo(ProposalSchema);
    const bad = Uint8Array.of(0x0a, 0x05, 0x01);
    expect(() => fromBinary(ProposalSchema, bad)).toThrow();
    expect(() => memo.decode(bad)).toThrow();
    expect(() => memo.decode(bad)).toThrow();
  });
});
