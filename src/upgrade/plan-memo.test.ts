import { create, toBinary } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PlanSchema } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { decodePlan, decodePlanUncached } from "./plan.js";

describe("decodePlan with its memo", () => {
  // Stored plans as the keeper writes them (times in and out of the valid range), their truncations and random
  // bytes: every answer, ok or error, equals the decoder's without the memo, asked for twice.
  const encoded = fc
    .record({
      name: fc.string({ maxLength: 12 }),
      height: fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }),
      info: fc.string({ maxLength: 12 }),
      seconds: fc.option(fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n })),
      nanos: fc.integer({ min: -1, max: 1e9 }),
    })
    .map(({ name, height, info, seconds, nanos }) =>
      toBinary(
        PlanSchema,
        create(PlanSchema, { name, height, info, ...(seconds === null ? {} : { time: { seconds, nanos } }) }),
      ),
    );
  const bytes = fc.oneof(
    encoded,
    encoded.chain((b) => fc.nat(b.length).map((n) => b.slice(0, n))),
    fc.uint8Array({ maxLength: 40 }),
    fc.uint8Array({ minLength: 1025, maxLength: 1100 }),
  );

  it("answers as the decoder without the memo, every time", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        for (let i = 0; i < 2; i++) expect(decodePlan(b)).toStrictEqual(decodePlanUncached(b));
      }),
      { numRuns: 2000 },
    );
  });

  it("hands each caller its own plan", () => {
    const b = toBinary(PlanSchema, create(PlanSchema, { name: "v2", height: 10n, time: { seconds: 1n, nanos: 0 } }));
    const first = decodePlan(b);
    if (!first.ok) throw new Error("the plan decodes");
    first.value.name = "changed";
    first.value.time!.seconds = 99n;
    expect(decodePlan(b)).toStrictEqual(decodePlanUncached(b));
  });
});
