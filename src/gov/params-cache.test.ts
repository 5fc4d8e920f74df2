import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { StoreCtx } from "../app/context.js";
import { height, unixMs } from "../core/brand.js";
import { ParamsSchema } from "../gen/chain/gov/v1/gov_pb.js";
import { MemMultiStore } from "../store/mem-multistore.js";
import { protoDuration } from "./duration.js";
import { defaultParams, readParams } from "./params.js";
import { GOV_STORE, setStoredParams } from "./store.js";

/** readParams reuses the parse of equal stored bytes, and follows every change of them, whatever store it reads. */
const ctxOf = () =>
  new StoreCtx(new MemMultiStore([GOV_STORE]), {
    chainId: "c",
    height: height(1),
    time: unixMs(0),
    appVersion: 0n,
  });
const withVoting = (ms: number) => create(ParamsSchema, { ...defaultParams(), votingPeriod: protoDuration(ms) });

describe("readParams cache", () => {
  it("follows a change of the stored params, back and forth, and across stores", () => {
    const a = ctxOf();
    const b = ctxOf();
    setStoredParams(a, withVoting(108_000_000));
    setStoredParams(b, withVoting(144_000_000));
    const votingMs = (ctx: StoreCtx) => {
      const r = readParams(ctx);
      if (!r.ok) throw new Error(r.error.message);
      return r.value.votingPeriodMs;
    };
    expect(votingMs(a)).toBe(108_000_000);
    expect(votingMs(b)).toBe(144_000_000);
    expect(votingMs(a)).toBe(108_000_000);
    setStoredParams(a, withVoting(180_000_000));
    expect(votingMs(a)).toBe(180_000_000);
    setStoredParams(a, withVoting(108_000_000));
    expect(votingMs(a)).toBe(108_000_000);
  });

  it("returns the same frozen parse for equal bytes, and still reports missing or invalid params", () => {
    const ctx = ctxOf();
    expect(readParams(ctx)).toMatchObject({ ok: false });
    setStoredParams(ctx, defaultParams());
    const first = readParams(ctx);
    const again = readParams(ctx);
    expect(first.ok && again.ok && first.value === again.value).toBe(true);
    expect(first.ok && Object.isFrozen(first.value)).toBe(true);
    setStoredParams(ctx, create(ParamsSchema, { ...defaultParams(), quorum: "2" }));
    expect(readParams(ctx)).toEqual({
      ok: false,
      error: expect.objectContaining({ message: "failed to get governance parameters: quorum too large: 2" }),
    });
  });
});
