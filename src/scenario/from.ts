/**
 * Scenarios that start `from:` a profile (docs/scenario-format.md §from): the profile is read through an injected
 * reader (the edge's file system; this package never touches one), validated, and merged under the document.
 *
 * 1. `from` is a path relative to the scenario file. A profile that cannot be read or is invalid is ONE error at
 *    path `from`, quoting the profile's own first error.
 * 2. The chain: the profile's `chain` (minus `modules`), the scenario's `chain` keys over it (`gov` field by field,
 *    every other key whole), and the genesis time is the profile's `at.time` (a scenario may not set it). A drift
 *    block time without an anchor is anchored at the profile's height and time.
 * 3. Checks that need both: the genesis binary carries exactly the profile's module versions; a height step is
 *    above the imported height; an imported proposal's label is not reused.
 * 4. The start (model.ts `StartModel`): height and time, module versions, the pending plan, the applied plans, and
 *    the pending proposals with their ids, deposits and end times, each labelled `proposal-<id>` for steps.
 */

import { addressOfName, decodeAddress, govAuthority } from "../core/address.js";
import { err, ok, type Result } from "../core/errors.js";
import { clean, join } from "../core/go/filepath.js";
import { parseRfc3339 } from "../core/go/time.js";
import { normalizedCoins, parseCoins } from "./coins.js";
import { BASE_MODULES } from "./defaults.js";
import { formatScenarioError, type PathIssue, type ScenarioError } from "./errors.js";
import type { ImportedProposal, StartModel } from "./model.js";
import { type Profile, type ProfileProposal, parseProfile } from "./profile.js";

/** Reads a file's text by path (the edge's file system); an error is one line. */
export type ProfileReader = (path: string) => Result<string, string>;

/** The profile a scenario starts from: its path as read and its content. */
export interface FromProfile {
  readonly file: string;
  readonly profile: Profile;
}

type Rec = Readonly<Record<string, unknown>>;
const isRecord = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);

/** The label steps name an imported proposal by. */
export const importedLabel = (id: number | bigint): string => `proposal-${id}`;

/** The profile's path: `from` relative to the scenario file's directory (absolute paths as they are). */
export function profilePath(scenarioFile: string, from: string): string {
  if (from.startsWith("/")) return clean(from);
  const slash = scenarioFile.lastIndexOf("/");
  return join(slash < 0 ? "." : scenarioFile.slice(0, slash), from);
}

/** Reads and validates the profile `data.from` names; undefined without `from`. */
export function readFromProfile(
  fileName: string,
  data: unknown,
  read: ProfileReader | undefined,
): Result<FromProfile | undefined, ScenarioError[]> {
  if (!isRecord(data) || typeof data.from !== "string" || data.from === "") return ok(undefined);
  const fail = (message: string) => err([{ file: fileName, path: "from", message }]);
  if (read === undefined) return fail("a profile cannot be read here (no file reader)");
  const path = profilePath(fileName, data.from);
  const text = read(path);
  if (!text.ok) return fail(`cannot read profile ${path}: ${text.error}`);
  const parsed = parseProfile(path, text.value);
  if (!parsed.ok) {
    const first = parsed.error[0];
    const more = parsed.error.length > 1 ? ` (and ${parsed.error.length - 1} more)` : "";
    return fail(`invalid profile: ${first === undefined ? path : formatScenarioError(first)}${more}`);
  }
  return ok({ file: path, profile: parsed.value });
}

/** The document with the profile's chain under its own `chain` keys (see the header, step 2). */
export function withProfileChain(data: Rec, from: FromProfile): Rec {
  const { modules: _modules, ...base } = from.profile.chain;
  const own = isRecord(data.chain) ? data.chain : {};
  const gov = isRecord(own.gov) ? { ...base.gov, ...own.gov } : base.gov;
  const chain: Record<string, unknown> = { ...base, ...own, genesisTime: from.profile.at.time };
  if (gov !== undefined) chain.gov = gov;
  chain.blockTime = anchoredAtStart(chain.blockTime, from.profile.at);
  return { ...data, chain };
}

/**
 * A drift model without an anchor is anchored at the chain's start (docs/scenario-format.md): for a `from:` scenario
 * that is the profile's height and time, not height 0, since the model reads absolute heights.
 */
function anchoredAtStart(blockTime: unknown, at: Profile["at"]): unknown {
  if (!isRecord(blockTime) || !isRecord(blockTime.drift) || blockTime.drift.anchor !== undefined) return blockTime;
  return { ...blockTime, drift: { ...blockTime.drift, anchor: { height: at.height, time: at.time } } };
}

/** The checks that need the document and the profile (header, step 3). */
export function fromIssues(data: Rec, from: FromProfile): PathIssue[] {
  const issues: PathIssue[] = [];
  const at = from.profile.at.height;
  if (isRecord(data.chain) && data.chain.genesisTime !== undefined)
    issues.push({
      path: ["chain", "genesisTime"],
      message: "cannot be set with `from`: the chain starts at the profile's time",
    });
  const steps = Array.isArray(data.steps) ? data.steps : [];
  const labels = new Set((from.profile.proposals ?? []).map((p) => importedLabel(p.id)));
  steps.forEach((s, i) => {
    if (!isRecord(s)) return;
    if (typeof s.at === "number" && s.at <= at)
      issues.push({ path: ["steps", i, "at"], message: `must be above the profile's height ${at}` });
    const id = isRecord(s.submitProposal) ? s.submitProposal.id : undefined;
    if (typeof id === "string" && labels.has(id))
      issues.push({ path: ["steps", i, "submitProposal", "id"], message: `is an imported proposal's label` });
  });
  const modules = from.profile.chain.modules;
  const binaries = isRecord(data.binaries) ? data.binaries : {};
  const genesis = typeof data.genesisBinary === "string" ? data.genesisBinary : Object.keys(binaries)[0];
  const def = genesis === undefined ? undefined : binaries[genesis];
  const last = lastApplied(from.profile);
  if (last !== undefined && genesis !== undefined && isRecord(def) && !(isRecord(def.upgrades) && last in def.upgrades))
    issues.push({
      path: ["binaries", genesis, "upgrades"],
      message: `the genesis binary must register a handler for the last applied plan "${last}" (x/upgrade's PreBlocker halts a binary without one: wrong app version, upgrade handler is missing)`,
    });
  if (modules !== undefined && genesis !== undefined && isRecord(def)) {
    const own = isRecord(def.modules) ? def.modules : {};
    const have = new Map<string, unknown>(BASE_MODULES.map((m) => [m, 1]));
    for (const [m, v] of Object.entries(own)) have.set(m, v);
    const diff = moduleDiff(have, modules);
    if (diff !== "")
      issues.push({
        path: ["binaries", genesis, "modules"],
        message: `the genesis binary must carry the profile's module versions (${diff})`,
      });
  }
  return issues;
}

/** The last completed upgrade (x/upgrade GetLastCompletedUpgrade: the done marker at the highest height). */
const lastApplied = (p: Profile): string | undefined =>
  [...(p.applied ?? [])].sort((a, b) => b.height - a.height || (a.name < b.name ? 1 : -1))[0]?.name;

/** "m: binary 1, profile 2; …" for every module whose versions differ; "" when they are equal. */
function moduleDiff(have: ReadonlyMap<string, unknown>, want: Readonly<Record<string, number>>): string {
  const names = [...new Set([...have.keys(), ...Object.keys(want)])].sort();
  const out: string[] = [];
  for (const m of names) {
    const a = have.get(m);
    const b = want[m];
    if (a !== b) out.push(`${m}: binary ${a ?? "none"}, profile ${b ?? "none"}`);
  }
  return out.join("; ");
}

/** The import labels steps may name (`proposal-<id>`). */
export const importedLabels = (from: FromProfile | undefined): readonly string[] =>
  (from?.profile.proposals ?? []).map((p) => importedLabel(p.id));

/**
 * The start of a `from:` scenario (header, step 4), its addresses under the chain's bech32 `prefix`. Input validated
 * by `parseProfile`.
 */
export function startOf(from: FromProfile, prefix: string): StartModel {
  const p = from.profile;
  const time = (t: string): number => {
    const r = parseRfc3339(t);
    if (!r.ok) throw new Error(`profile time ${t} passed validation but does not parse`);
    return r.value;
  };
  return {
    profile: from.file,
    height: p.at.height,
    timeMs: time(p.at.time),
    ...(p.chain.modules === undefined ? {} : { modules: new Map(Object.entries(p.chain.modules)) }),
    plan: p.plan === null ? null : { name: p.plan.name, height: BigInt(p.plan.height), info: p.plan.info ?? "" },
    applied: (p.applied ?? []).map((a) => ({ name: a.name, height: a.height })),
    proposals: (p.proposals ?? []).map((q) => importedProposal(q, time, prefix)),
  };
}

function importedProposal(q: ProfileProposal, time: (t: string) => number, prefix: string): ImportedProposal {
  const deposit = q.totalDeposit === undefined ? ok([]) : parseCoins(q.totalDeposit);
  if (!deposit.ok) throw new Error(`profile deposit ${q.totalDeposit} passed validation but does not parse`);
  const proposer = q.proposer !== undefined && decodeAddress(q.proposer, prefix) !== undefined ? q.proposer : undefined;
  return {
    id: BigInt(q.id),
    label: importedLabel(q.id),
    status: q.status,
    expedited: q.expedited ?? false,
    title: q.title ?? importedLabel(q.id),
    proposer: proposer ?? addressOfName(importedLabel(q.id), prefix),
    submitTimeMs: time(q.submitTime),
    depositEndTimeMs: time(q.depositEndTime),
    ...(q.votingStartTime === undefined ? {} : { votingStartTimeMs: time(q.votingStartTime) }),
    ...(q.votingEndTime === undefined ? {} : { votingEndTimeMs: time(q.votingEndTime) }),
    deposit: normalizedCoins(deposit.value),
    messages: q.messages.map((m): ImportedMessage => {
      if ("softwareUpgrade" in m) {
        const u = m.softwareUpgrade;
        return {
          kind: "softwareUpgrade",
          authority: govAuthority(prefix),
          plan: { name: u.name, height: BigInt(u.height), info: u.info ?? "" },
        };
      }
      if ("cancelUpgrade" in m) return { kind: "cancelUpgrade", authority: govAuthority(prefix) };
      return { kind: "other", typeUrl: m.other };
    }),
  };
}

type ImportedMessage = ImportedProposal["messages"][number];
