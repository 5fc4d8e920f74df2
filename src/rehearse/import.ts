/**
 * `chainsim import`'s deterministic core (docs/profile-format.md): reads one node through an injected fetcher and
 * builds a rehearsal profile. The edge (src/cli/import.ts) supplies the fetcher (timeouts, retries, backoff) and
 * writes the file.
 *
 * Steps:
 * 1. RPC `status`: chain id, latest height H and time; every REST query after this is pinned to H.
 * 2. The bonded validators at H (RPC `validators`, paged), named by staking's monikers where served.
 * 3. Every gov param; module versions; the current plan.
 * 4. The proposals in the deposit and the voting period, messages decoded, voting ones with their tally; then the
 *    applied plans among the names of passed proposals and of these pending ones.
 * 5. The block-time history over the window (./history.ts), fitted.
 * 6. RPC `status` again: the same chain id, no lower height.
 * 7. The profile, checked against the profile schema.
 * Returns the profile, or the first failure as data (never throws).
 */

import { type BlockTimeFit, fitBlockTimes } from "../chain/block-time-fit.js";
import { err, ok, type Result } from "../core/errors.js";
import { formatDurationNs } from "../core/go/duration.js";
import { formatRfc3339 } from "../core/go/time.js";
import type { Namespace } from "../core/namespace.js";
import { namesOf } from "../core/namespace.js";
import {
  PROFILE_VERSION,
  type Profile,
  type ProfileHistory,
  type ProfileProposal,
  parseProfile,
  profileToYaml,
} from "../scenario/profile.js";
import { readHistory } from "./history.js";
import { uniqueNames } from "./names.js";
import { readPassedPlanNames, readPendingProposals } from "./proposals.js";
import { type Fetcher, fail, ImportAbort, type ImportFailure, NodeReader } from "./reader.js";
import { readAppliedHeight, readCurrentPlan, readGovParams, readModuleVersions, readMonikers } from "./rest.js";
import { checkStatusAgain, readStatus, readValidators } from "./rpc.js";

export interface ImportOptions {
  readonly rest: string;
  readonly rpc: string;
  readonly namespace: Namespace;
  readonly historyMs: number;
  readonly maxValidators: number;
  readonly maxRequests: number;
  /** Sample pages read at once. */
  readonly concurrency: number;
  readonly fetch: Fetcher;
  readonly onRequest?: (count: number) => void;
}

export interface Imported {
  readonly profile: Profile;
  /** Every request the import made, and those of the history alone. */
  readonly requests: number;
  readonly historyRequests: number;
  readonly samples: number;
}

/** Default bound on the validator set (`--max-validators`). */
export const MAX_VALIDATORS_DEFAULT = 1_000;
/** Default bound on an import's requests. */
export const MAX_REQUESTS_DEFAULT = 4_000;

export async function importProfile(o: ImportOptions): Promise<Result<Imported, ImportFailure>> {
  const reader = new NodeReader({
    rest: o.rest.replace(/\/+$/, ""),
    rpc: o.rpc.replace(/\/+$/, ""),
    names: namesOf(o.namespace),
    fetch: o.fetch,
    maxRequests: o.maxRequests,
    ...(o.onRequest === undefined ? {} : { onRequest: o.onRequest }),
  });
  try {
    return ok(await run(reader, o));
  } catch (e) {
    if (e instanceof ImportAbort) return err(e.failure);
    throw e;
  }
}

async function readNamedValidators(reader: NodeReader, height: number, max: number) {
  const powers = await readValidators(reader, height, max);
  const monikers = await readMonikers(reader);
  const names = uniqueNames(powers.map((v) => ({ moniker: monikers?.get(v.pubkey), address: v.address })));
  return powers.map((v, i) => ({ name: names[i]!, power: v.power }));
}

/**
 * The applied plans among the names the node lets us know: those of passed proposals, and those the pending
 * proposals carry (a name already done would make their plan fail).
 */
async function readApplied(
  reader: NodeReader,
  pending: readonly ProfileProposal[],
): Promise<{ name: string; height: number }[]> {
  const carried = pending.flatMap((p) =>
    p.messages.flatMap((m) => ("softwareUpgrade" in m ? [m.softwareUpgrade.name] : [])),
  );
  const applied: { name: string; height: number }[] = [];
  for (const name of new Set([...(await readPassedPlanNames(reader)), ...carried])) {
    const height = await readAppliedHeight(reader, name);
    if (height > 0) applied.push({ name, height });
  }
  return applied.sort((a, b) => a.height - b.height || a.name.localeCompare(b.name));
}

/** A duration string of fractional milliseconds (to the microsecond). */
const durationText = (ms: number): string => formatDurationNs(BigInt(Math.round(ms * 1_000)) * 1_000n);

function historyOf(
  samples: readonly { height: number; timeMs: number }[],
  requests: number,
  f: BlockTimeFit,
): ProfileHistory {
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  return {
    samples: samples.length,
    requests,
    from: { height: first.height, time: formatRfc3339(first.timeMs) },
    to: { height: last.height, time: formatRfc3339(last.timeMs) },
    meanBlockTime: {
      lastHour: durationText(f.meanBlockTime.lastHourMs),
      lastDay: durationText(f.meanBlockTime.lastDayMs),
      window: durationText(f.meanBlockTime.windowMs),
    },
    ...(f.hourlyMs.length === 0 ? {} : { hourlyMs: [...f.hourlyMs] }),
    fit: { ...f.fit },
  };
}

async function run(reader: NodeReader, o: ImportOptions): Promise<Imported> {
  const status = await readStatus(reader);
  reader.pinnedHeight = status.latestHeight;
  const validators = await readNamedValidators(reader, status.latestHeight, o.maxValidators);
  const gov = await readGovParams(reader);
  const modules = await readModuleVersions(reader);
  const plan = await readCurrentPlan(reader);
  const proposals = await readPendingProposals(reader);
  const applied = await readApplied(reader, proposals);
  const history = await readHistory(reader, status, o.historyMs, o.concurrency);
  const fitted = fitBlockTimes(history.samples);
  const rpcHistory = `${reader.o.rpc}/blockchain`;
  if (!fitted.ok) return fail("no-history", rpcHistory, `the block-time history cannot be fitted: ${fitted.error}`);
  checkStatusAgain(reader, status, await readStatus(reader));
  const f = fitted.value;
  const at = { height: status.latestHeight, time: formatRfc3339(status.latestTimeMs) };
  const profile: Profile = {
    profile: PROFILE_VERSION,
    source: { rest: o.rest, rpc: o.rpc, namespace: o.namespace, chainId: status.chainId },
    at,
    chain: {
      chainId: status.chainId,
      blockTime: f.document as Profile["chain"]["blockTime"],
      validators,
      gov,
      modules,
    },
    plan,
    applied,
    proposals,
    history: historyOf(history.samples, history.requests, f),
  };
  const checked = parseProfile("import.profile.yaml", profileToYaml(profile));
  if (!checked.ok) {
    const e = checked.error[0]!;
    return fail("malformed", `${reader.o.rest}`, `the node's values make an invalid profile: ${e.path}: ${e.message}`);
  }
  return { profile, requests: reader.requests, historyRequests: history.requests, samples: history.samples.length };
}
