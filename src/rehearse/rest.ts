/**
 * What the import reads from the REST gateway, in the namespace's names (reference: cosmos-sdk v0.50 x/gov v1
 * `Query/Params`, `Query/Proposals`, `Query/TallyResult`; x/upgrade `Query/CurrentPlan`, `AppliedPlan`,
 * `ModuleVersions`; x/staking `Query/Validators`). Every query is pinned to the import's height.
 *
 * - Gov params: `gov/v1/params/{voting,deposit,tallying}`; v0.47+ answers each with `params` (every field), older
 *   nodes with only the asked part, so the three answers are merged.
 * - Paged lists (`pagination.key` / `next_key`) stop at an empty key; a key seen twice is a pagination loop, and the
 *   pages are capped.
 */
import { formatDurationNs, parseDurationNs } from "../core/go/duration.js";
import type { Profile, ProfilePlan } from "../scenario/profile.js";
import { Answer } from "./fields.js";
import { fail, type NodeReader } from "./reader.js";

/** The gov params in the scenario's `chain.gov` keys. */
export type GovParams = NonNullable<Profile["chain"]["gov"]>;

/** Most pages one paged REST list may take. */
export const REST_PAGES_MAX = 100;
const PAGE_LIMIT = 100;

/** Every page of a paged REST list, in order. */
export async function readPaged(
  reader: NodeReader,
  path: string,
  params: Readonly<Record<string, string>>,
  optional = false,
): Promise<Answer[] | undefined> {
  const pages: Answer[] = [];
  const keys = new Set<string>();
  let key = "";
  for (let i = 0; ; i++) {
    const q = { ...params, "pagination.limit": String(PAGE_LIMIT), ...(key === "" ? {} : { "pagination.key": key }) };
    const endpoint = `${reader.o.rest}${reader.o.names.rest(path)}`;
    if (i >= REST_PAGES_MAX) fail("pagination-loop", endpoint, `more than ${REST_PAGES_MAX} pages`);
    const v = await reader.rest(path, q, optional);
    if (v === undefined) return undefined;
    const a = new Answer(endpoint, v);
    pages.push(a);
    const next = a.has("pagination") ? (a.obj("pagination").optStr("next_key") ?? "") : "";
    if (next === "") return pages;
    if (keys.has(next)) fail("pagination-loop", endpoint, `next_key ${JSON.stringify(next)} again: the pages repeat`);
    keys.add(next);
    key = next;
  }
}

/** An SDK LegacyDec without trailing zeros ("0.334000000000000000" → "0.334"). */
export const trimDec = (text: string): string => (text.includes(".") ? text.replace(/\.?0+$/, "") : text);

const coinsText = (list: readonly Answer[]): string => list.map((c) => `${c.str("amount")}${c.str("denom")}`).join(",");

function durationText(a: Answer, key: string): string {
  const text = a.str(key);
  const ns = parseDurationNs(text);
  return ns.ok ? formatDurationNs(ns.value) : fail("malformed", a.endpoint, `${key}: not a duration: ${text}`);
}

/** Reads every gov param. */
export async function readGovParams(reader: NodeReader): Promise<GovParams> {
  const merged: Record<string, unknown> = {};
  let endpoint = "";
  for (const [type, part] of [
    ["voting", "voting_params"],
    ["deposit", "deposit_params"],
    ["tallying", "tally_params"],
  ] as const) {
    const path = `gov/v1/params/${type}`;
    endpoint = `${reader.o.rest}${reader.o.names.rest(path)}`;
    const a = new Answer(endpoint, (await reader.rest(path))!);
    if (a.has(part)) Object.assign(merged, a.obj(part).value);
    if (a.has("params")) Object.assign(merged, a.obj("params").value);
  }
  return govParamsOf(new Answer(endpoint, merged as Record<string, never>));
}

function govParamsOf(p: Answer): GovParams {
  const out: Record<string, string | boolean> = {};
  const coins: [string, string][] = [
    ["min_deposit", "minDeposit"],
    ["expedited_min_deposit", "expeditedMinDeposit"],
  ];
  const durations: [string, string][] = [
    ["max_deposit_period", "maxDepositPeriod"],
    ["voting_period", "votingPeriod"],
    ["expedited_voting_period", "expeditedVotingPeriod"],
  ];
  const ratios: [string, string][] = [
    ["quorum", "quorum"],
    ["threshold", "threshold"],
    ["expedited_threshold", "expeditedThreshold"],
    ["veto_threshold", "vetoThreshold"],
    ["min_initial_deposit_ratio", "minInitialDepositRatio"],
    ["min_deposit_ratio", "minDepositRatio"],
    ["proposal_cancel_ratio", "proposalCancelRatio"],
  ];
  const flags: [string, string][] = [
    ["burn_vote_quorum", "burnVoteQuorum"],
    ["burn_proposal_deposit_prevote", "burnProposalDepositPrevote"],
    ["burn_vote_veto", "burnVoteVeto"],
  ];
  for (const [k, name] of coins) if (p.has(k)) out[name] = coinsText(p.list(k));
  for (const [k, name] of durations) if (p.has(k)) out[name] = durationText(p, k);
  for (const [k, name] of ratios) if (p.has(k) && p.str(k) !== "") out[name] = trimDec(p.str(k));
  for (const [k, name] of flags) if (p.has(k)) out[name] = p.bool(k);
  if (p.has("proposal_cancel_dest")) out.proposalCancelDest = p.str("proposal_cancel_dest");
  if (out.votingPeriod === undefined || out.maxDepositPeriod === undefined)
    fail("malformed", p.endpoint, "the gov params have no voting_period or max_deposit_period");
  return out as GovParams;
}

/** The plan's height as the profile writes it: a number when safe, else the decimal string. */
const heightOf = (a: Answer, key: string): number | string => {
  const text = a.str(key);
  if (!/^[0-9]{1,19}$/.test(text)) return fail("malformed", a.endpoint, `${key}: expected an integer, got ${text}`);
  return Number.isSafeInteger(Number(text)) ? Number(text) : text;
};

export const planOf = (p: Answer): ProfilePlan => ({
  name: p.str("name"),
  height: heightOf(p, "height"),
  info: p.optStr("info") ?? "",
});

export async function readCurrentPlan(reader: NodeReader): Promise<ProfilePlan | null> {
  const path = "upgrade/v1beta1/current_plan";
  const a = new Answer(`${reader.o.rest}${reader.o.names.rest(path)}`, (await reader.rest(path))!);
  return a.has("plan") ? planOf(a.obj("plan")) : null;
}

export async function readModuleVersions(reader: NodeReader): Promise<Record<string, number>> {
  const path = "upgrade/v1beta1/module_versions";
  const a = new Answer(`${reader.o.rest}${reader.o.names.rest(path)}`, (await reader.rest(path))!);
  const out: Record<string, number> = {};
  for (const m of a.list("module_versions")) {
    const v = m.int("version");
    if (v >= 1) out[m.str("name")] = v;
  }
  return out;
}

/** The height `name` was applied at, or 0 if it never was. */
export async function readAppliedHeight(reader: NodeReader, name: string): Promise<number> {
  const path = `upgrade/v1beta1/applied_plan/${encodeURIComponent(name)}`;
  return new Answer(`${reader.o.rest}${reader.o.names.rest(path)}`, (await reader.rest(path))!).int("height");
}

/** Consensus public key (base64) → moniker of the bonded validators, or undefined when staking is not served. */
export async function readMonikers(reader: NodeReader): Promise<Map<string, string> | undefined> {
  const pages = await readPaged(reader, "staking/v1beta1/validators", { status: "BOND_STATUS_BONDED" }, true);
  if (pages === undefined) return undefined;
  const out = new Map<string, string>();
  for (const page of pages)
    for (const v of page.list("validators")) {
      const key = v.has("consensus_pubkey") ? v.obj("consensus_pubkey").optStr("key") : undefined;
      if (key !== undefined) out.set(key, v.obj("description").str("moniker"));
    }
  return out;
}
