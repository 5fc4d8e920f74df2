import type { Event } from "../core/context.js";
import type { ProposalOutcome } from "../gov/types.js";
import type { GovBlockEvent } from "./types.js";

/**
 * A block's governance facts for the engine (`ExecOutcome.gov`), in this order: submissions and voting starts read
 * from the block's gov events (x/gov `submit_proposal` and `proposal_deposit` with their `proposal_id` and
 * `voting_period_start` attributes), the proposals cancelled by the block's transactions, then the EndBlocker's
 * outcomes in processing order.
 */
export function blockGovEvents(
  events: readonly Event[],
  cancelled: readonly bigint[],
  outcomes: readonly ProposalOutcome[],
): GovBlockEvent[] {
  const gov: GovBlockEvent[] = [...govEventsFrom(events)];
  for (const id of cancelled) gov.push({ kind: "cancelled", id });
  for (const o of outcomes) {
    switch (o.kind) {
      case "dropped":
        gov.push({ kind: "dropped", id: o.id });
        break;
      case "passed":
        gov.push({ kind: "passed", id: o.id });
        break;
      case "failed":
        gov.push({ kind: "failed", id: o.id, reason: o.failedReason });
        break;
      case "rejected":
        gov.push({ kind: "rejected", id: o.id });
        break;
      case "expedited-fallback":
        gov.push({ kind: "expedited-fallback", id: o.id });
        break;
    }
  }
  return gov;
}

/** Submission and activation facts from the gov events of a block. */
function* govEventsFrom(events: readonly Event[]): Generator<GovBlockEvent> {
  for (const e of events) {
    if (e.type !== "submit_proposal" && e.type !== "proposal_deposit") continue;
    for (const a of e.attributes) {
      if (a.key === "voting_period_start") yield { kind: "voting-started", id: BigInt(a.value) };
      else if (a.key === "proposal_id" && e.type === "submit_proposal")
        yield { kind: "submitted", id: BigInt(a.value) };
    }
  }
}
