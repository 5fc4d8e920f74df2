/**
 * The block-time history the import samples (docs/profile-format.md "Sampling plan"), from CometBFT's `blockchain`
 * (pages of at most 20 consecutive headers):
 * 1. The last hour, whole: pages back from the latest height until a header is at least an hour old (at most
 *    `LAST_HOUR_PAGES_MAX` pages; a faster chain gets the newest part of the hour).
 * 2. The window's first height: a secant search on (height, time) from the last hour's rate, a page per probe, until
 *    a header lies within half a sampling spacing of `latest time − window` (at most `SEARCH_STEPS_MAX` probes). A
 *    node whose earliest stored block is younger than that gives a shorter window (the profile says which).
 * 3. One page every `spacing` of chain time (10 minutes, or wider so that at most `SAMPLE_PAGES_MAX` pages cover a
 *    long window), spaced evenly in height between the window's first height and the last hour.
 * Pages are read `concurrency` at a time; the samples are sorted by height and unique, so the result does not depend
 * on the order answers arrive in.
 */
import { assert } from "../core/assert.js";
import { fail, type NodeReader } from "./reader.js";
import { type HeaderSample, METAS_PER_PAGE, type NodeStatus, readHeaders } from "./rpc.js";

export const HOUR_MS = 3_600_000;
export const SAMPLE_SPACING_MS = 10 * 60_000;
export const LAST_HOUR_PAGES_MAX = 300;
export const SEARCH_STEPS_MAX = 12;
export const SAMPLE_PAGES_MAX = 1_500;

export interface History {
  readonly samples: readonly HeaderSample[];
  /** Requests the history took. */
  readonly requests: number;
}

/** Reads whole pages back from the latest height until one reaches `sinceMs` (or the earliest block). */
async function readLastHour(reader: NodeReader, status: NodeStatus): Promise<HeaderSample[]> {
  const out: HeaderSample[] = [];
  let max = status.latestHeight;
  for (let i = 0; i < LAST_HOUR_PAGES_MAX && max >= status.earliestHeight; i++) {
    const page = await readHeaders(reader, status, Math.max(status.earliestHeight, max - METAS_PER_PAGE + 1), max);
    out.unshift(...page);
    if (page[0]!.timeMs <= status.latestTimeMs - HOUR_MS) break;
    max = page[0]!.height - 1;
  }
  return out;
}

/** Mean ms per block between two samples (at least 1 ms). */
const rate = (a: HeaderSample, b: HeaderSample): number =>
  Math.max(1, (b.timeMs - a.timeMs) / Math.max(1, b.height - a.height));

/** Secant search for the height whose time is `targetMs`; returns the probes read, the best one first. */
async function findWindowStart(
  reader: NodeReader,
  status: NodeStatus,
  anchor: HeaderSample,
  targetMs: number,
  toleranceMs: number,
): Promise<HeaderSample[]> {
  const probes: HeaderSample[] = [];
  let known = anchor;
  let msPerBlock = rate(anchor, { height: status.latestHeight, timeMs: status.latestTimeMs });
  for (let step = 0; step < SEARCH_STEPS_MAX; step++) {
    const guess = Math.round(known.height - (known.timeMs - targetMs) / msPerBlock);
    const g = Math.min(anchor.height - 1, Math.max(status.earliestHeight, guess));
    const page = await readHeaders(reader, status, g, Math.min(anchor.height - 1, g + METAS_PER_PAGE - 1));
    probes.push(...page);
    const first = page[0]!;
    if (Math.abs(first.timeMs - targetMs) <= toleranceMs) break;
    if (first.height === status.earliestHeight && first.timeMs > targetMs) break;
    if (first.height === anchor.height - 1 && first.timeMs < targetMs) break;
    msPerBlock =
      first.height === known.height
        ? msPerBlock
        : rate(first.height < known.height ? first : known, first.height < known.height ? known : first);
    known = first;
  }
  const best = probes.reduce((b, p) => (Math.abs(p.timeMs - targetMs) < Math.abs(b.timeMs - targetMs) ? p : b));
  return [best, ...probes];
}

async function readPages(
  reader: NodeReader,
  status: NodeStatus,
  starts: readonly number[],
  concurrency: number,
): Promise<HeaderSample[]> {
  const out: HeaderSample[] = [];
  for (let i = 0; i < starts.length; i += concurrency) {
    const batch = starts.slice(i, i + concurrency);
    const pages = await Promise.all(batch.map((s) => readHeaders(reader, status, s, s + METAS_PER_PAGE - 1)));
    for (const p of pages) out.push(...p);
  }
  return out;
}

/** The sampled headers of the window ending at the latest block, sorted by height and unique. */
export async function readHistory(
  reader: NodeReader,
  status: NodeStatus,
  windowMs: number,
  concurrency: number,
): Promise<History> {
  assert(windowMs >= HOUR_MS, "the window is at least an hour");
  const before = reader.requests;
  const lastHour = await readLastHour(reader, status);
  const oldest = lastHour[0]!;
  const targetMs = status.latestTimeMs - windowMs;
  const all = [...lastHour];
  const spacingMs = Math.max(SAMPLE_SPACING_MS, windowMs / SAMPLE_PAGES_MAX);
  if (oldest.timeMs > targetMs && oldest.height > status.earliestHeight) {
    const [start, ...probes] = await findWindowStart(reader, status, oldest, targetMs, spacingMs / 2);
    all.push(...probes);
    const blocks = oldest.height - start!.height;
    const step = Math.max(METAS_PER_PAGE, Math.round(spacingMs / rate(start!, oldest)));
    const starts: number[] = [];
    for (let h = start!.height; h + METAS_PER_PAGE <= oldest.height && starts.length < SAMPLE_PAGES_MAX; h += step)
      starts.push(h);
    assert(blocks > 0, "the window's start is below the last hour");
    all.push(...(await readPages(reader, status, starts, concurrency)));
  }
  const byHeight = new Map(all.map((s) => [s.height, s]));
  const samples = [...byHeight.values()].sort((a, b) => a.height - b.height);
  const fromIndex = samples.findIndex((s) => s.timeMs >= targetMs - spacingMs);
  const windowed = samples.slice(Math.max(0, fromIndex));
  if (windowed.length < 2)
    fail("no-history", `${reader.o.rpc}/blockchain`, "fewer than 2 headers stored: no block-time history to fit");
  return { samples: windowed, requests: reader.requests - before };
}
