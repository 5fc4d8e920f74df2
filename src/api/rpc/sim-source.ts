import type { NodeState } from "../../app/node-process.js";
import type { SimTx } from "../../app/types.js";
import type { ChainEngine } from "../../chain/engine.js";
import { addressOfName } from "../../core/address.js";
import type { NamespaceNames } from "../../core/namespace.js";
import { backendNames, type QueryBackend } from "../backend.js";
import { nodeBlockSource } from "../node-backend.js";
import { rpcValidators } from "./shapes.js";
import type { RpcEvent, RpcSource, RpcTxResult } from "./source.js";

/**
 * The read-only CometBFT RPC view of one simulated node (`chainsim serve`): its blocks and the chain's tx results up
 * to its height, the same query backend as its REST and gRPC servers, no mempool and no broadcast.
 *
 * Simulated transactions are not TxRaw: their bytes are the canonical JSON of the simulator's transaction (what the
 * block's data hash covers), and a result carries code 0 or 1, its log, and a `message` event with the message's
 * type URL as `action` and its signer as `sender`.
 */
const ACTION: Record<SimTx["kind"], string> = {
  submitProposal: "gov.v1.MsgSubmitProposal",
  deposit: "gov.v1.MsgDeposit",
  vote: "gov.v1.MsgVote",
  cancelProposal: "gov.v1.MsgCancelProposal",
  upgrade: "upgrade.v1beta1.MsgSoftwareUpgrade",
};

function senderOf(tx: SimTx): string {
  switch (tx.kind) {
    case "submitProposal":
    case "cancelProposal":
      return tx.proposer;
    case "deposit":
      return tx.depositor;
    case "vote":
      return tx.voter;
    case "upgrade":
      return tx.signer;
  }
}

/** The message's type URL in the backend's namespace. */
function actionOf(tx: SimTx, names: NamespaceNames): string {
  if (tx.kind === "upgrade" && tx.messages[0]?.kind === "cancelUpgrade")
    return names.typeUrl("upgrade.v1beta1.MsgCancelUpgrade");
  return names.typeUrl(ACTION[tx.kind]);
}

const attr = (key: string, value: string) => ({ key, value, index: true });

export function simRpcSource(
  sim: ChainEngine<NodeState>,
  node: string,
  backend: QueryBackend,
  validators: readonly { readonly name: string; readonly power: number }[],
  rpcAddress: string,
): RpcSource {
  const blocks = nodeBlockSource(sim, node, rpcAddress);
  const vals = rpcValidators(validators);
  const names = backendNames(backend);
  return {
    backend,
    blocks,
    appHashAfter: (h) => (h <= blocks.latestHeight() ? sim.blocks.appHash(h)?.toUpperCase() : undefined),
    blockResults: (h): RpcTxResult[] => {
      if (h > blocks.latestHeight()) return [];
      const txs = sim.blocks.txs(h);
      const results = sim.blockResults(h);
      return txs.map((tx, i) => {
        const r = results[i];
        const events: RpcEvent[] =
          r?.ok === true
            ? [
                {
                  type: "message",
                  attributes: [
                    attr("action", actionOf(tx, names)),
                    attr("sender", senderOf(tx)),
                    attr("msg_index", "0"),
                  ],
                },
              ]
            : [];
        if (r?.ok === true && r.proposalId !== undefined)
          events.push({ type: "submit_proposal", attributes: [attr("proposal_id", r.proposalId.toString())] });
        return { code: r?.ok === true ? 0 : 1, codespace: "", log: r?.error ?? "", gasWanted: 0n, gasUsed: 0n, events };
      });
    },
    validators: () => vals,
    genesis: () => ({
      // CometBFT's first block carries the genesis time; a chain from an imported state starts after its base.
      timeMs: sim.blocks.timeMs(sim.blocks.base + 1) ?? sim.cfg.genesisTimeMs,
      initialHeight: sim.blocks.base + 1,
      appState: {
        validators: validators.map((v) => ({
          name: v.name,
          address: addressOfName(v.name, sim.cfg.bech32Prefix),
          power: v.power,
        })),
      },
    }),
    mempool: () => ({ count: 0, bytes: 0 }),
  };
}
