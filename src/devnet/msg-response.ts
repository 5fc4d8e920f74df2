import { create, toBinary } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { type Namespace, namesOf } from "../core/namespace.js";
import { TxMsgDataSchema } from "../gen/chain/base/abci/v1beta1/abci_pb.js";
import {
  MsgCancelProposalResponseSchema,
  MsgDepositResponseSchema,
  MsgSubmitProposalResponseSchema,
  MsgVoteResponseSchema,
} from "../gen/chain/gov/v1/tx_pb.js";
import {
  MsgCancelUpgradeResponseSchema,
  MsgSoftwareUpgradeResponseSchema,
} from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import { type DecodedMsg, packAny } from "./tx.js";

/** What the block knows of a message that succeeded: the proposal it created or cancelled, the block's height and time. */
export interface MsgOutcome {
  readonly proposalId?: bigint;
  readonly height: number;
  readonly timeMs: number;
}

/** The message server's response, Any-packed (`/chain.gov.v1.MsgSubmitProposalResponse` carries the proposal id). */
export function msgResponse(msg: DecodedMsg, o: MsgOutcome, ns: Namespace = "chain"): Any {
  const a = chainResponse(msg, o);
  return { ...a, typeUrl: namesOf(ns).fromChain(a.typeUrl) };
}

function chainResponse(msg: DecodedMsg, o: MsgOutcome): Any {
  switch (msg.sim.kind) {
    case "submitProposal":
      return packAny(
        MsgSubmitProposalResponseSchema,
        create(MsgSubmitProposalResponseSchema, { proposalId: o.proposalId ?? 0n }),
      );
    case "deposit":
      return packAny(MsgDepositResponseSchema, create(MsgDepositResponseSchema));
    case "vote":
      return packAny(MsgVoteResponseSchema, create(MsgVoteResponseSchema));
    case "cancelProposal": {
      const seconds = Math.floor(o.timeMs / 1000);
      return packAny(
        MsgCancelProposalResponseSchema,
        create(MsgCancelProposalResponseSchema, {
          proposalId: msg.sim.proposalId,
          canceledTime: { seconds: BigInt(seconds), nanos: (o.timeMs - seconds * 1000) * 1_000_000 },
          canceledHeight: BigInt(o.height),
        }),
      );
    }
    default:
      return msg.sim.messages[0]?.kind === "cancelUpgrade"
        ? packAny(MsgCancelUpgradeResponseSchema, create(MsgCancelUpgradeResponseSchema))
        : packAny(MsgSoftwareUpgradeResponseSchema, create(MsgSoftwareUpgradeResponseSchema));
  }
}

/**
 * The ExecTxResult's `data` as the reference's BaseApp writes it (`makeABCIData`): `TxMsgData{msg_responses}`, one
 * Any per message, the deprecated `data` list empty. A failed transaction has no data.
 */
export const txMsgData = (responses: readonly Any[]): Uint8Array =>
  toBinary(TxMsgDataSchema, create(TxMsgDataSchema, { msgResponses: [...responses] }));
