import { create } from "@bufbuild/protobuf";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import type { Ctx } from "../core/context.js";
import { type ChainError, errorText, type RegisteredError, wrap } from "../core/errors.js";
import { encodeMessage } from "../core/proto-encode.js";
import { CoinSchema } from "../gen/chain/base/v1beta1/coin_pb.js";
import { VoteOption } from "../gen/chain/gov/v1/gov_pb.js";
import {
  MsgCancelProposalSchema,
  MsgDepositSchema,
  MsgSubmitProposalSchema,
  MsgVoteSchema,
} from "../gen/chain/gov/v1/tx_pb.js";
import { MsgCancelUpgradeSchema, MsgSoftwareUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import type { GovKeeper } from "../gov/keeper.js";
import type { UpgradeMsgServer } from "../upgrade/msg-server.js";
import { makePlan } from "../upgrade/plan.js";
import type { CoinInput, SimTx, TxResult, UpgradeMessage, VoteOptionName } from "./types.js";

/** Root SDK error for a signature that does not belong to the message's signer. */
const ErrInvalidPubKey: RegisteredError = Object.freeze({ codespace: "sdk", code: 8, description: "invalid pubkey" });

const VOTE_OPTIONS: Record<VoteOptionName, VoteOption> = {
  yes: VoteOption.YES,
  abstain: VoteOption.ABSTAIN,
  no: VoteOption.NO,
  no_with_veto: VoteOption.NO_WITH_VETO,
};

const coins = (cs: readonly CoinInput[]) =>
  cs.map((c) => create(CoinSchema, { denom: c.denom, amount: c.amount.toString() }));

/**
 * Packed messages by message object: a transaction is delivered by every node that executes its block, again on a
 * stalled retry and on a catch-up, and its messages (readonly data) pack to the same bytes each time.
 */
const packed = new WeakMap<UpgradeMessage, { readonly typeUrl: string; readonly value: Uint8Array }>();

/** An upgrade message as the `Any` a proposal carries; the type URL has the Cosmos-style `/` prefix. */
export function packUpgradeMsg(m: UpgradeMessage): { typeUrl: string; value: Uint8Array } {
  let p = packed.get(m);
  if (p === undefined) {
    p = packUncached(m);
    packed.set(m, p);
  }
  return { typeUrl: p.typeUrl, value: p.value.slice() };
}

function packUncached(m: UpgradeMessage): { typeUrl: string; value: Uint8Array } {
  if (m.kind === "softwareUpgrade") {
    const msg = create(MsgSoftwareUpgradeSchema, {
      authority: m.authority,
      plan: makePlan({
        name: m.plan.name,
        height: m.plan.height,
        info: m.plan.info,
        ...(m.plan.time === undefined ? {} : { time: m.plan.time }),
        ...(m.plan.upgradedClientState === undefined ? {} : { upgradedClientState: m.plan.upgradedClientState }),
      }),
    });
    return {
      typeUrl: "/chain.upgrade.v1beta1.MsgSoftwareUpgrade",
      value: encodeMessage(MsgSoftwareUpgradeSchema, msg),
    };
  }
  const msg = create(MsgCancelUpgradeSchema, { authority: m.authority });
  return { typeUrl: "/chain.upgrade.v1beta1.MsgCancelUpgrade", value: encodeMessage(MsgCancelUpgradeSchema, msg) };
}

export interface TxEffects {
  /** A proposal deleted by MsgCancelProposal. */
  readonly cancelled?: bigint;
}

/**
 * Delivers one transaction in `ctx` (the caller's branch). Returns the result the chain records; the caller keeps
 * the branch only when `ok`. Signature checks are modelled by comparing each message's signer with the tx signer.
 */
export function deliverTx(
  ctx: Ctx,
  tx: SimTx,
  deps: { readonly gov: GovKeeper; readonly upgrade: UpgradeMsgServer },
): { readonly result: TxResult; readonly effects: TxEffects } {
  const fail = (e: ChainError) => ({ result: { ok: false, error: errorText(e) }, effects: {} });
  switch (tx.kind) {
    case "submitProposal": {
      const msg = create(MsgSubmitProposalSchema, {
        messages: tx.messages.map((m) => {
          const p = packUpgradeMsg(m);
          return create(AnySchema, { typeUrl: p.typeUrl, value: p.value });
        }),
        initialDeposit: coins(tx.initialDeposit),
        proposer: tx.proposer,
        metadata: tx.metadata,
        title: tx.title,
        summary: tx.summary,
        expedited: tx.expedited,
      });
      const r = deps.gov.submitProposal(ctx, msg);
      return r.ok ? { result: { ok: true, proposalId: r.value.proposalId }, effects: {} } : fail(r.error);
    }
    case "deposit": {
      const r = deps.gov.deposit(
        ctx,
        create(MsgDepositSchema, { proposalId: tx.proposalId, depositor: tx.depositor, amount: coins(tx.amount) }),
      );
      return r.ok ? { result: { ok: true }, effects: {} } : fail(r.error);
    }
    case "vote": {
      const r = deps.gov.vote(
        ctx,
        create(MsgVoteSchema, {
          proposalId: tx.proposalId,
          voter: tx.voter,
          option: VOTE_OPTIONS[tx.option],
          metadata: "",
        }),
      );
      return r.ok ? { result: { ok: true }, effects: {} } : fail(r.error);
    }
    case "cancelProposal": {
      const r = deps.gov.cancelProposal(
        ctx,
        create(MsgCancelProposalSchema, { proposalId: tx.proposalId, proposer: tx.proposer }),
      );
      return r.ok ? { result: { ok: true }, effects: { cancelled: tx.proposalId } } : fail(r.error);
    }
    case "upgrade": {
      for (const m of tx.messages) {
        // The ante handler: the tx must be signed by each message's signer (its authority field).
        if (m.authority !== tx.signer) {
          return fail(
            wrap(ErrInvalidPubKey, `pubKey does not match signer address ${m.authority} with signer index: 0`),
          );
        }
      }
      for (const m of tx.messages) {
        const p = packUpgradeMsg(m);
        const r = deps.upgrade.route(ctx, p.typeUrl, p.value);
        if (!r.ok) return fail(r.error);
      }
      return { result: { ok: true }, effects: {} };
    }
  }
}
