import type { SimTx } from "../app/types.js";
import { addressOfName, govAuthority } from "../core/address.js";
import type { Action } from "./actions.js";

/** A transaction-sending action, as transactions; or why it cannot be sent. */
export type ActionTxs =
  | { readonly ok: true; readonly txs: readonly SimTx[] }
  | { readonly ok: false; readonly error: string };

/**
 * What a scenario action sends to the mempool (pure): accounts become their addresses under the chain's bech32
 * `prefix` (`chain1…` by default), proposal labels
 * their ids (a label whose submission has not succeeded is an error). Upgrade messages carry their authority
 * already (the scenario resolver fills its defaults). Undefined for actions that send nothing (node operations,
 * checks).
 */
export function actionTxs(
  a: Action,
  proposalId: (label: string) => bigint | undefined,
  prefix: string,
): ActionTxs | undefined {
  const addr = (name: string): string => addressOfName(name, prefix);
  const missing = (label: string): ActionTxs => ({
    ok: false,
    error: `proposal "${label}" has no id: its submission has not succeeded`,
  });
  switch (a.kind) {
    case "submitProposal":
      return {
        ok: true,
        txs: [
          {
            kind: "submitProposal",
            proposer: addr(a.proposer),
            messages: a.messages,
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
          a.kind === "deposit"
            ? { kind: "deposit", proposalId: id, depositor: addr(a.from), amount: a.amount }
            : { kind: "cancelProposal", proposalId: id, proposer: addr(a.from) },
        ],
      };
    }
    case "vote": {
      const id = proposalId(a.proposal);
      if (id === undefined) return missing(a.proposal);
      return {
        ok: true,
        txs: [...a.votes].map(([voter, option]) => ({
          kind: "vote",
          proposalId: id,
          voter: addr(voter),
          option,
        })),
      };
    }
    case "tx": {
      const signer = addr(a.from);
      return { ok: true, txs: [{ kind: "upgrade", signer, messages: a.messages }] };
    }
    case "authorityExec":
      return {
        ok: true,
        txs: [{ kind: "upgrade", signer: govAuthority(prefix), messages: a.messages }],
      };
    default:
      return undefined;
  }
}
