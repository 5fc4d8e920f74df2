import { create, type Message } from "@bufbuild/protobuf";
import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, type Result, SdkErrors, wrap, wrapMore } from "../core/errors.js";
import { decodeMessage } from "../core/proto-decode.js";
import { encodeMessage } from "../core/proto-encode.js";
import {
  type MsgCancelUpgrade,
  type MsgCancelUpgradeResponse,
  MsgCancelUpgradeResponseSchema,
  MsgCancelUpgradeSchema,
  type MsgSoftwareUpgrade,
  type MsgSoftwareUpgradeResponse,
  MsgSoftwareUpgradeResponseSchema,
  MsgSoftwareUpgradeSchema,
} from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import { UpgradeErrors } from "./errors.js";
import type { UpgradeKeeper } from "./keeper.js";
import { makePlan, validateBasic } from "./plan.js";

/**
 * The Msg service `chain.upgrade.v1beta1.Msg` (reference x/upgrade/keeper/msg_server.go). Both methods first compare
 * the message authority with the keeper's as exact strings (no address decoding). SoftwareUpgrade then runs the
 * plan's ValidateBasic and wraps its error with `plan` (`plan: name cannot be empty: invalid request`) before
 * ScheduleUpgrade, which validates again (unreachable from here) and refuses the past and completed names.
 */

export const MSG_SOFTWARE_UPGRADE_TYPE_URL = "/chain.upgrade.v1beta1.MsgSoftwareUpgrade";
export const MSG_CANCEL_UPGRADE_TYPE_URL = "/chain.upgrade.v1beta1.MsgCancelUpgrade";
export const MSG_SOFTWARE_UPGRADE_RESPONSE_TYPE_URL = "/chain.upgrade.v1beta1.MsgSoftwareUpgradeResponse";
export const MSG_CANCEL_UPGRADE_RESPONSE_TYPE_URL = "/chain.upgrade.v1beta1.MsgCancelUpgradeResponse";

/** A routed message's response, ready to be packed into an Any. */
export interface RoutedResponse {
  readonly typeUrl: string;
  readonly message: Message;
  readonly bytes: Uint8Array;
}

export interface UpgradeMsgServer {
  softwareUpgrade(ctx: Ctx, msg: MsgSoftwareUpgrade): Result<MsgSoftwareUpgradeResponse, ChainError>;
  cancelUpgrade(ctx: Ctx, msg: MsgCancelUpgrade): Result<MsgCancelUpgradeResponse, ChainError>;
  /** Decodes and executes an upgrade message given as an Any's type URL and value. */
  route(ctx: Ctx, typeUrl: string, bytes: Uint8Array): Result<RoutedResponse, ChainError>;
}

export function newMsgServer(keeper: UpgradeKeeper): UpgradeMsgServer {
  const checkAuthority = (authority: string): Result<void, ChainError> =>
    keeper.authority === authority
      ? ok(undefined)
      : err(wrap(UpgradeErrors.ErrInvalidSigner, `expected ${keeper.authority} got ${authority}`));

  const softwareUpgrade = (ctx: Ctx, msg: MsgSoftwareUpgrade): Result<MsgSoftwareUpgradeResponse, ChainError> => {
    const auth = checkAuthority(msg.authority);
    if (!auth.ok) return auth;
    // The plan is non-nullable in the reference: an absent plan is the zero plan.
    const plan = msg.plan ?? makePlan({});
    const valid = validateBasic(plan);
    if (!valid.ok) return err(wrapMore(valid.error, "plan"));
    const scheduled = keeper.scheduleUpgrade(ctx, plan);
    if (!scheduled.ok) return scheduled;
    return ok(create(MsgSoftwareUpgradeResponseSchema));
  };

  const cancelUpgrade = (ctx: Ctx, msg: MsgCancelUpgrade): Result<MsgCancelUpgradeResponse, ChainError> => {
    const auth = checkAuthority(msg.authority);
    if (!auth.ok) return auth;
    const cleared = keeper.clearUpgradePlan(ctx);
    if (!cleared.ok) return cleared;
    return ok(create(MsgCancelUpgradeResponseSchema));
  };

  const decodeError = (typeUrl: string, e: unknown): ChainError =>
    wrap(SdkErrors.ErrInvalidRequest, `failed to decode ${typeUrl}: ${e instanceof Error ? e.message : String(e)}`);

  const route = (ctx: Ctx, typeUrl: string, bytes: Uint8Array): Result<RoutedResponse, ChainError> => {
    switch (typeUrl) {
      case MSG_SOFTWARE_UPGRADE_TYPE_URL: {
        let msg: MsgSoftwareUpgrade;
        try {
          msg = decodeMessage(MsgSoftwareUpgradeSchema, bytes);
        } catch (e) {
          return err(decodeError(typeUrl, e));
        }
        const r = softwareUpgrade(ctx, msg);
        if (!r.ok) return r;
        const message = r.value;
        return ok({
          typeUrl: MSG_SOFTWARE_UPGRADE_RESPONSE_TYPE_URL,
          message,
          bytes: encodeMessage(MsgSoftwareUpgradeResponseSchema, message),
        });
      }
      case MSG_CANCEL_UPGRADE_TYPE_URL: {
        let msg: MsgCancelUpgrade;
        try {
          msg = decodeMessage(MsgCancelUpgradeSchema, bytes);
        } catch (e) {
          return err(decodeError(typeUrl, e));
        }
        const r = cancelUpgrade(ctx, msg);
        if (!r.ok) return r;
        const message = r.value;
        return ok({
          typeUrl: MSG_CANCEL_UPGRADE_RESPONSE_TYPE_URL,
          message,
          bytes: encodeMessage(MsgCancelUpgradeResponseSchema, message),
        });
      }
      default:
        return err(wrap(SdkErrors.ErrUnknownRequest, `unrecognized upgrade message type: ${typeUrl}`));
    }
  };

  return { softwareUpgrade, cancelUpgrade, route };
}
