/**
 * Proposals the import reads (reference: cosmos-sdk v0.50 x/gov v1 `Query/Proposals`, `Query/TallyResult`):
 * 1. those in the deposit and the voting period, each with its messages decoded: `MsgSoftwareUpgrade` (its plan),
 *    `MsgCancelUpgrade`, the same inside a legacy `MsgExecLegacyContent` (`SoftwareUpgradeProposal`,
 *    `CancelSoftwareUpgradeProposal`), any other message by its type URL; a voting proposal's tally so far from
 *    `/tally`;
 * 2. the names of the plans carried by passed proposals, to ask `applied_plan/{name}` which ran (the most recent
 *    `APPLIED_NAMES_MAX`).
 */

import { formatRfc3339 } from "../core/go/time.js";
import type { ProfileProposal } from "../scenario/profile.js";
import { Answer } from "./fields.js";
import type { NodeReader } from "./reader.js";
import { planOf, readPaged } from "./rest.js";

/** Most plan names the import asks `applied_plan` about. */
export const APPLIED_NAMES_MAX = 64;

type Message = ProfileProposal["messages"][number];

const STATUS: Record<string, ProfileProposal["status"]> = {
  PROPOSAL_STATUS_DEPOSIT_PERIOD: "deposit",
  PROPOSAL_STATUS_VOTING_PERIOD: "voting",
};

/** One message of a proposal, decoded by its type name in the reader's namespace. */
function messageOf(reader: NodeReader, m: Answer): Message {
  const typeUrl = m.str("@type");
  const name = reader.o.names.typeName(typeUrl);
  if (name === "upgrade.v1beta1.MsgSoftwareUpgrade") return { softwareUpgrade: planOf(m.obj("plan")) };
  if (name === "upgrade.v1beta1.MsgCancelUpgrade") return { cancelUpgrade: {} };
  if (name === "gov.v1.MsgExecLegacyContent" && m.has("content")) {
    const content = m.obj("content");
    const inner = reader.o.names.typeName(content.str("@type"));
    if (inner === "upgrade.v1beta1.SoftwareUpgradeProposal") return { softwareUpgrade: planOf(content.obj("plan")) };
    if (inner === "upgrade.v1beta1.CancelSoftwareUpgradeProposal") return { cancelUpgrade: {} };
  }
  return { other: typeUrl };
}

const coinsText = (list: readonly Answer[]): string => list.map((c) => `${c.str("amount")}${c.str("denom")}`).join(",");
const rfc = (p: Answer, key: string): string | undefined => (p.has(key) ? p.str(key) : undefined);

function proposalOf(reader: NodeReader, p: Answer, status: ProfileProposal["status"]): ProfileProposal {
  const out: ProfileProposal = {
    id: p.int("id"),
    status,
    ...(p.has("expedited") ? { expedited: p.bool("expedited") } : {}),
    ...(p.has("proposer") && p.str("proposer") !== "" ? { proposer: p.str("proposer") } : {}),
    ...(p.has("title") && p.str("title") !== "" ? { title: p.str("title") } : {}),
    submitTime: normalTime(p, "submit_time"),
    depositEndTime: normalTime(p, "deposit_end_time"),
    totalDeposit: coinsText(p.list("total_deposit")),
    messages: p.list("messages").map((m) => messageOf(reader, m)),
  };
  if (status === "voting") {
    const start = rfc(p, "voting_start_time");
    const end = rfc(p, "voting_end_time");
    if (start !== undefined) out.votingStartTime = normalTime(p, "voting_start_time");
    if (end !== undefined) out.votingEndTime = normalTime(p, "voting_end_time");
  }
  return out;
}

/** A time field as the profile writes it (RFC 3339 in UTC, milliseconds). */
function normalTime(p: Answer, key: string): string {
  return formatRfc3339(p.timeMs(key));
}

/** The proposals in the deposit and the voting period, by id, voting ones with their tally. */
export async function readPendingProposals(reader: NodeReader): Promise<ProfileProposal[]> {
  const out: ProfileProposal[] = [];
  for (const [statusName, status] of Object.entries(STATUS)) {
    const pages = (await readPaged(reader, "gov/v1/proposals", { proposal_status: statusName }))!;
    for (const page of pages) for (const p of page.list("proposals")) out.push(proposalOf(reader, p, status));
  }
  for (const p of out) if (p.status === "voting") p.tally = await readTally(reader, p.id);
  return out.sort((a, b) => a.id - b.id);
}

async function readTally(reader: NodeReader, id: number): Promise<NonNullable<ProfileProposal["tally"]>> {
  const path = `gov/v1/proposals/${id}/tally`;
  const a = new Answer(`${reader.o.rest}${reader.o.names.rest(path)}`, (await reader.rest(path))!).obj("tally");
  const count = (k: string) => {
    const t = a.str(k);
    return /^[0-9]+$/.test(t) ? t : "0";
  };
  return {
    yes: count("yes_count"),
    abstain: count("abstain_count"),
    no: count("no_count"),
    noWithVeto: count("no_with_veto_count"),
  };
}

/** The plan names carried by passed proposals, most recent proposal first, at most APPLIED_NAMES_MAX. */
export async function readPassedPlanNames(reader: NodeReader): Promise<string[]> {
  const pages = (await readPaged(reader, "gov/v1/proposals", { proposal_status: "PROPOSAL_STATUS_PASSED" }))!;
  const byId: { id: number; names: string[] }[] = [];
  for (const page of pages)
    for (const p of page.list("proposals")) {
      const names = p
        .list("messages")
        .map((m) => messageOf(reader, m))
        .flatMap((m) => ("softwareUpgrade" in m ? [m.softwareUpgrade.name] : []));
      byId.push({ id: p.int("id"), names });
    }
  const names = byId.sort((a, b) => b.id - a.id).flatMap((p) => p.names);
  return [...new Set(names)].slice(0, APPLIED_NAMES_MAX);
}
