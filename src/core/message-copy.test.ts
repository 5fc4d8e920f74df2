import { clone, create, toBinary } from "@bufbuild/protobuf";
import { anyPack, timestampFromMs } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ProposalSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { PlanSchema } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { copyMessage } from "./message-copy.js";

const plan = fc
  .record({
    name: fc.string(),
    height: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
    info: fc.string(),
    timeMs: fc.option(fc.integer({ min: -1e13, max: 1e13 })),
    state: fc.option(fc.uint8Array({ maxLength: 8 })),
  })
  .map(({ name, height, info, timeMs, state }) =>
    create(PlanSchema, {
      name,
      height,
      info,
      ...(timeMs === null ? {} : { time: timeFrom(timeMs) }),
      ...(state === null ? {} : { upgradedClientState: { typeUrl: "/x", value: state } }),
    }),
  );
const timeFrom = (ms: number) => timestampFromMs(ms);

const proposal = fc
  .tuple(plan, fc.array(fc.record({ denom: fc.string(), amount: fc.string() }), { maxLength: 3 }))
  .map(([p, coins]) =>
    create(ProposalSchema, {
      id: p.height,
      messages: [anyPack(PlanSchema, p)],
      totalDeposit: coins,
      metadata: p.info,
      ...(p.time === undefined ? {} : { votingEndTime: p.time }),
    }),
  );

describe("copyMessage", () => {
  it("equals clone() for plans and proposals, prototype and keys included, and encodes to the same bytes", () => {
    fc.assert(
      fc.property(plan, proposal, (p, q) => {
        expect(copyMessage(p)).toStrictEqual(clone(PlanSchema, p));
        expect(toBinary(PlanSchema, copyMessage(p))).toEqual(toBinary(PlanSchema, p));
        expect(copyMessage(q)).toStrictEqual(clone(ProposalSchema, q));
        expect(toBinary(ProposalSchema, copyMessage(q))).toEqual(toBinary(ProposalSchema, q));
      }),
      { numRuns: 500 },
    );
  });

  it("shares nothing mutable with the original", () => {
    fc.assert(
      fc.property(proposal, (q) => {
        const before = toBinary(ProposalSchema, q);
        const c = copyMessage(q);
        c.messages[0]!.value.fill(7);
        c.totalDeposit.push({ $typeName: "chain.base.v1beta1.Coin", denom: "x", amount: "1" });
        if (c.votingEndTime !== undefined) c.votingEndTime.seconds += 1n;
        expect(toBinary(ProposalSchema, q)).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });
});
