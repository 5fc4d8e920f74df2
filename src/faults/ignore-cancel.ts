import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ok } from "../core/errors.js";
import { MsgCancelUpgradeResponseSchema, MsgCancelUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import { MSG_CANCEL_UPGRADE_RESPONSE_TYPE_URL, MSG_CANCEL_UPGRADE_TYPE_URL } from "../upgrade/msg-server.js";
import type { FaultDefinition } from "./hooks.js";

const authorityOf = (bytes: Uint8Array): string | undefined => {
  try {
    return fromBinary(MsgCancelUpgradeSchema, bytes).authority;
  } catch {
    return undefined;
  }
};

/** MsgCancelUpgrade from the authority answers success and leaves the plan in place. */
export const ignoreCancel = {
  name: "ignore-cancel",
  breaks: "MsgCancelUpgrade succeeds without clearing the plan",
  hooks: {
    msgServer: (inner, keeper) => ({
      ...inner,
      route: (ctx, typeUrl, bytes) => {
        if (typeUrl !== MSG_CANCEL_UPGRADE_TYPE_URL || authorityOf(bytes) !== keeper.authority)
          return inner.route(ctx, typeUrl, bytes);
        const message = create(MsgCancelUpgradeResponseSchema);
        return ok({
          typeUrl: MSG_CANCEL_UPGRADE_RESPONSE_TYPE_URL,
          message,
          bytes: toBinary(MsgCancelUpgradeResponseSchema, message),
        });
      },
    }),
  },
  caughtBy: { scenarios: ["cancel-before-height-clears-plan"] },
  replayFails: true,
} as const satisfies FaultDefinition;
