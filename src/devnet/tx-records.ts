import { base64 } from "@scure/base";
import type { TxResult } from "../app/types.js";
import { type ChainError, errorText } from "../core/errors.js";
import type { Namespace } from "../core/namespace.js";
import { type AnteOk, anteGas, type TxEvent } from "./ante.js";
import type { TxRecord } from "./block-log.js";
import { msgResponse, txMsgData } from "./msg-response.js";
import type { DecodedMsg, DecodedTx } from "./tx.js";

/**
 * The results a devnet block records for its transactions (what `tx`, `tx_search`, block_results and the tx service
 * read), as CometBFT's ExecTxResult carries them:
 *
 * - `failedRecord`: a tx the ante handler refused in the block (or any tx of block 1): its code and codespace, its
 *   error text as the log, the gas the ante handler accounts for, no events;
 * - `deliveredRecord`: a tx that passed the ante handler: on success the ante events then the message events and the
 *   TxMsgData of its response; on failure code 1 with the app's error and the ante events only;
 * - `msgEvents`: x/auth's `message` event and, for a submission, gov's `submit_proposal`.
 */
export interface PoolTx {
  readonly tx: DecodedTx;
  readonly hash: string;
}

/** The code and codespace of an error (an unregistered one: code 1, no codespace). */
export const codeOf = (e: ChainError) => ({
  code: e.kind === "sdk" ? e.base.code : 1,
  codespace: e.kind === "sdk" ? e.base.codespace : "",
});

export function failedRecord(p: PoolTx, height: number, index: number, e: ChainError): TxRecord {
  const gasWanted = (p.tx.authInfo.fee?.gasLimit ?? 0n).toString();
  return {
    txhash: p.hash,
    height: String(height),
    index,
    ...codeOf(e),
    raw_log: errorText(e),
    gas_wanted: gasWanted,
    gas_used: anteGas(p.tx).toString(),
    events: [],
  };
}

export function deliveredRecord(
  p: PoolTx,
  at: { readonly height: number; readonly timeMs: number; readonly index: number },
  ante: AnteOk,
  r: TxResult,
  namespace: Namespace,
): TxRecord {
  const { height, timeMs, index: i } = at;
  const common = {
    txhash: p.hash,
    height: String(height),
    index: i,
    gas_wanted: ante.gasWanted.toString(),
    gas_used: ante.gasUsed.toString(),
  };
  return r.ok
    ? {
        ...common,
        code: 0,
        codespace: "",
        raw_log: "",
        events: [...ante.events, ...msgEvents(p.tx.msgs[0]!, r.proposalId)],
        data: base64.encode(
          txMsgData([
            msgResponse(
              p.tx.msgs[0]!,
              { height, timeMs, ...(r.proposalId === undefined ? {} : { proposalId: r.proposalId }) },
              namespace,
            ),
          ]),
        ),
        ...(r.proposalId === undefined ? {} : { proposal_id: r.proposalId.toString() }),
      }
    : { ...common, code: 1, codespace: "", raw_log: r.error ?? "", events: ante.events };
}

const attr = (key: string, value: string) => ({ key, value, index: true });

/** The message events of a delivered message (x/auth's `message` event, gov's `submit_proposal`). */
export function msgEvents(m: DecodedMsg, proposalId: bigint | undefined): TxEvent[] {
  const out: TxEvent[] = [
    {
      type: "message",
      attributes: [
        attr("action", m.typeUrl),
        attr("sender", m.signer),
        attr("module", m.module),
        attr("msg_index", "0"),
      ],
    },
  ];
  if (proposalId !== undefined)
    out.push({
      type: "submit_proposal",
      attributes: [attr("proposal_id", proposalId.toString()), attr("msg_index", "0")],
    });
  return out;
}
