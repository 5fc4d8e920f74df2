import { create, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { newUpgradeEnv } from "../../test/kit/upgrade.js";
import { govAuthority } from "../core/address.js";
import { errorText, grpcMessage } from "../core/errors.js";
import {
  MsgCancelUpgradeResponseSchema,
  MsgCancelUpgradeSchema,
  MsgSoftwareUpgradeResponseSchema,
  MsgSoftwareUpgradeSchema,
} from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import {
  MSG_CANCEL_UPGRADE_RESPONSE_TYPE_URL,
  MSG_CANCEL_UPGRADE_TYPE_URL,
  MSG_SOFTWARE_UPGRADE_RESPONSE_TYPE_URL,
  MSG_SOFTWARE_UPGRADE_TYPE_URL,
  newMsgServer,
} from "./msg-server.js";
import { makePlan } from "./plan.js";

const OTHER = "chain1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqnrql8a";

const fail = (r: { ok: boolean; error?: unknown }) =>
  r.ok ? "ok" : errorText((r as { error: Parameters<typeof errorText>[0] }).error);

describe("Msg/SoftwareUpgrade (docs/fidelity.md §2.8)", () => {
  it("schedules the plan when signed by the authority", () => {
    const env = newUpgradeEnv();
    const srv = newMsgServer(env.keeper);
    const msg = create(MsgSoftwareUpgradeSchema, {
      authority: govAuthority(),
      plan: makePlan({ name: "v2", height: 10n }),
    });
    expect(srv.softwareUpgrade(env.ctxAt(1), msg).ok).toBe(true);
    const p = env.keeper.getUpgradePlan(env.ctxAt(1));
    expect(p.ok && p.value.name).toBe("v2");
  });
  it("rejects another signer with the exact text (string comparison, no decoding)", () => {
    const env = newUpgradeEnv();
    const srv = newMsgServer(env.keeper);
    const msg = create(MsgSoftwareUpgradeSchema, { authority: OTHER, plan: makePlan({ name: "v2", height: 10n }) });
    const r = srv.softwareUpgrade(env.ctxAt(1), msg);
    expect(fail(r)).toBe(
      `expected ${govAuthority()} got ${OTHER}: expected authority account as only signer for proposal message`,
    );
    expect(r.ok ? "" : grpcMessage(r.error)).toBe(
      `codespace upgrade code 6: expected authority account as only signer for proposal message: expected ${govAuthority()} got ${OTHER}`,
    );
    const upper = create(MsgSoftwareUpgradeSchema, { authority: govAuthority().toUpperCase(), plan: makePlan({}) });
    expect(srv.softwareUpgrade(env.ctxAt(1), upper).ok).toBe(false);
  });
  it("checks the authority before the plan, wraps ValidateBasic's error with `plan`, and returns ScheduleUpgrade's errors unchanged", () => {
    const env = newUpgradeEnv();
    const srv = newMsgServer(env.keeper);
    const bad = create(MsgSoftwareUpgradeSchema, { authority: OTHER, plan: makePlan({}) });
    expect(fail(srv.softwareUpgrade(env.ctxAt(1), bad))).toMatch(/^expected /);
    const noName = create(MsgSoftwareUpgradeSchema, { authority: govAuthority(), plan: makePlan({ height: 5n }) });
    expect(fail(srv.softwareUpgrade(env.ctxAt(1), noName))).toBe("plan: name cannot be empty: invalid request");
    const noHeight = create(MsgSoftwareUpgradeSchema, { authority: govAuthority(), plan: makePlan({ name: "v" }) });
    expect(fail(srv.softwareUpgrade(env.ctxAt(1), noHeight))).toBe(
      "plan: height must be greater than 0: invalid request",
    );
    // authority first: a bad authority with an invalid plan reports the authority
    const both = create(MsgSoftwareUpgradeSchema, { authority: OTHER, plan: makePlan({ height: 5n }) });
    expect(fail(srv.softwareUpgrade(env.ctxAt(1), both))).toMatch(/^expected /);
    const absent = create(MsgSoftwareUpgradeSchema, { authority: govAuthority() });
    expect(fail(srv.softwareUpgrade(env.ctxAt(1), absent))).toBe("plan: name cannot be empty: invalid request");
    const past = create(MsgSoftwareUpgradeSchema, {
      authority: govAuthority(),
      plan: makePlan({ name: "v", height: 1n }),
    });
    expect(fail(srv.softwareUpgrade(env.ctxAt(5), past))).toBe(
      "upgrade cannot be scheduled in the past: invalid request",
    );
  });
  it("honours a custom authority", () => {
    const env = newUpgradeEnv({ authority: OTHER });
    const srv = newMsgServer(env.keeper);
    const msg = create(MsgSoftwareUpgradeSchema, { authority: OTHER, plan: makePlan({ name: "v2", height: 10n }) });
    expect(srv.softwareUpgrade(env.ctxAt(1), msg).ok).toBe(true);
  });
});

describe("Msg/CancelUpgrade (docs/fidelity.md §2.8)", () => {
  it("clears a plan, and succeeds when there is none", () => {
    const env = newUpgradeEnv();
    const srv = newMsgServer(env.keeper);
    env.keeper.scheduleUpgrade(env.ctxAt(1), makePlan({ name: "v2", height: 10n }));
    const msg = create(MsgCancelUpgradeSchema, { authority: govAuthority() });
    expect(srv.cancelUpgrade(env.ctxAt(2), msg).ok).toBe(true);
    expect(env.keeper.getUpgradePlan(env.ctxAt(2)).ok).toBe(false);
    expect(srv.cancelUpgrade(env.ctxAt(3), msg).ok).toBe(true);
  });
  it("rejects another signer", () => {
    const env = newUpgradeEnv();
    env.keeper.scheduleUpgrade(env.ctxAt(1), makePlan({ name: "v2", height: 10n }));
    const r = newMsgServer(env.keeper).cancelUpgrade(
      env.ctxAt(2),
      create(MsgCancelUpgradeSchema, { authority: OTHER }),
    );
    expect(fail(r)).toBe(
      `expected ${govAuthority()} got ${OTHER}: expected authority account as only signer for proposal message`,
    );
    expect(env.keeper.getUpgradePlan(env.ctxAt(2)).ok).toBe(true);
  });
});

describe("routing Any messages", () => {
  it("decodes and executes both message types", () => {
    const env = newUpgradeEnv();
    const srv = newMsgServer(env.keeper);
    const su = toBinary(
      MsgSoftwareUpgradeSchema,
      create(MsgSoftwareUpgradeSchema, { authority: govAuthority(), plan: makePlan({ name: "v2", height: 10n }) }),
    );
    // The response is packed as the reference's msg service router packs it into msg_responses: an Any whose type
    // URL is the response message's full name, with the (empty) response encoded.
    const r = srv.route(env.ctxAt(1), MSG_SOFTWARE_UPGRADE_TYPE_URL, su);
    expect(MSG_SOFTWARE_UPGRADE_RESPONSE_TYPE_URL).toBe(`/${MsgSoftwareUpgradeResponseSchema.typeName}`);
    expect(r.ok && r.value.typeUrl).toBe(MSG_SOFTWARE_UPGRADE_RESPONSE_TYPE_URL);
    expect(r.ok && r.value.bytes.length).toBe(0);
    const cu = toBinary(MsgCancelUpgradeSchema, create(MsgCancelUpgradeSchema, { authority: govAuthority() }));
    const c = srv.route(env.ctxAt(2), MSG_CANCEL_UPGRADE_TYPE_URL, cu);
    expect(MSG_CANCEL_UPGRADE_RESPONSE_TYPE_URL).toBe(`/${MsgCancelUpgradeResponseSchema.typeName}`);
    expect(c.ok && c.value.typeUrl).toBe(MSG_CANCEL_UPGRADE_RESPONSE_TYPE_URL);
    expect(c.ok && c.value.bytes.length).toBe(0);
    expect(env.keeper.getUpgradePlan(env.ctxAt(2)).ok).toBe(false);
  });
  it("passes message errors through", () => {
    const env = newUpgradeEnv();
    const cu = toBinary(MsgCancelUpgradeSchema, create(MsgCancelUpgradeSchema, { authority: OTHER }));
    expect(fail(newMsgServer(env.keeper).route(env.ctxAt(2), MSG_CANCEL_UPGRADE_TYPE_URL, cu))).toMatch(/^expected /);
  });
  it("reports undecodable bytes and unknown type URLs", () => {
    const srv = newMsgServer(newUpgradeEnv().keeper);
    const ctx = newUpgradeEnv().ctxAt(1);
    expect(fail(srv.route(ctx, MSG_SOFTWARE_UPGRADE_TYPE_URL, Uint8Array.of(0x0a, 0x05)))).toMatch(
      /^failed to decode \/chain\.upgrade\.v1beta1\.MsgSoftwareUpgrade: .+: invalid request$/,
    );
    expect(fail(srv.route(ctx, MSG_CANCEL_UPGRADE_TYPE_URL, Uint8Array.of(0x0a, 0x05)))).toMatch(
      /^failed to decode \/chain\.upgrade\.v1beta1\.MsgCancelUpgrade: .+: invalid request$/,
    );
    expect(fail(srv.route(ctx, "/chain.bank.v1beta1.MsgSend", new Uint8Array()))).toBe(
      "unrecognized upgrade message type: /chain.bank.v1beta1.MsgSend: unknown request",
    );
  });
});
