import type { SimTx, UpgradeMsgInput } from "../app/types.js";
import { addressOfName, GOV_AUTHORITY } from "../core/address.js";
import type { Action, UpgradeMsgSpec } from "./actions.js";

/** A transaction-sending action, as transactions; or why it cannot be sent. */
export type ActionTxs =
  | { readonly ok: true; readonly txs: readonly SimTx[] }
  | { readonly ok: false; readonly error: string };

/** An upgrade message with its authority resolved: the message's own, else the action's default. */
export const resolveMsg = (m: UpgradeMsgSpec, defaultAuthority: string): UpgradeMsgInput =>
  m.type === "softwareUpgrade"
    ? { type: "softwareUpgrade", authority: m.authority ?? defaultAuthority, plan: m.plan }
    : { type: "cancelUpgrade", authority: m.authority ?? defaultAuthority };

/**
 * What a scenario action sends to the mempool (pure): accounts become their `chain1…` addresses, proposal labels
 * their ids (a label whose submission has not succeeded is an error), and upgrade messages get their default
 * authority — the gov account in proposals and `authorityExec`, the signer in `tx`. Undefined for actions that
 * send nothing (node operations, checks).
 */
export function actionTxs(a: Action, proposalId: (label: string) => bigint | undefined): ActionTxs | undefined {
  const missing = (label: string): ActionTxs => ({
    ok: false,
    error: `proposal "${label}" has no id: its submission has not succeeded`,
  });
  switch (a.type) {
    case "submitProposal":
      return {
        ok: true,
        txs: [
          {
            kind: "submitProposal",
            proposer: addressOfName(a.proposer),
            messages: a.messages.map((m) => resolveMsg(m, GOV_AUTHORITY)),
            initialDeposit: a.deposit,
            title: a.title,
            summary: a.summary,
            metadata: a.metadata,
            expedited: a.expedited,
          },
        ],
      };
    case "deposit":
    case "cancelProposal": {
      const id = proposalId(a.proposal);
      if (id === undefined) return missing(a.proposal);
      return {
        ok: true,
        txs: [
          a.type === "deposit"
            ? { kind: "deposit", proposalId: id, depositor: addressOfName(a.from), amount: a.amount }
            : { kind: "cancelProposal", proposalId: id, proposer: addressOfName(a.from) },
        ],
      };
    }
    case "vote": {
      const id = proposalId(a.proposal);
      if (id === undefined) return missing(a.proposal);
      return {
        ok: true,
        txs: a.votes.map(([voter, option]) => ({ kind: "vote", proposalId: id, voter: addressOfName(voter), option })),
      };
    }
    case "tx": {
      const signer = addressOfName(a.from);
      return { ok: true, txs: [{ kind: "upgrade", signer, messages: a.messages.map((m) => resolveMsg(m, signer)) }] };
    }
    case "authorityExec":
      return {
        ok: true,
        txs: [
          { kind: "upgrade", signer: GOV_AUTHORITY, messages: a.messages.map((m) => resolveMsg(m, GOV_AUTHORITY)) },
        ],
      };
    default:
      return undefined;
  }
}
