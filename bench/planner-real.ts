/**
 * The real upgrades of bench/fixtures/real-upgrades.json (docs/block-time-model.md §4 "Real upgrades"): public
 * (height, actual block time) pairs of past upgrades, each with its source, and one announced estimate.
 *
 * What they allow, without an archive node's week of headers before each announcement (so the planner itself cannot
 * be run on them):
 * 1. the announced estimate's error: actual − announced time, and the lead (actual − the time it was published);
 * 2. the realised mean block time between consecutive upgrades of one chain: the drift of the mean over months;
 * 3. the naive estimate of an upgrade from the one before, with the mean block time of the interval before that
 *    (the common practice: one long average), where the horizon is at most 14 days (the bench's horizons).
 */
import { readFileSync } from "node:fs";
import { type BenchResult, result } from "./bench.js";

interface RealUpgrade {
  readonly name: string;
  readonly height: number;
  readonly time: string;
  readonly announced?: { readonly time: string; readonly publishedAt: string; readonly source: string };
}

interface RealChain {
  readonly chain: string;
  readonly source: string;
  readonly upgrades: readonly RealUpgrade[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const HORIZON_MAX_MS = 14 * DAY_MS;

/** The fixture's chains, each upgrade list checked: heights and times strictly increasing. */
function loadChains(): RealChain[] {
  const url = new URL("./fixtures/real-upgrades.json", import.meta.url);
  const doc = JSON.parse(readFileSync(url, "utf8")) as { chains: RealChain[] };
  for (const c of doc.chains)
    for (let i = 1; i < c.upgrades.length; i++) {
      const [a, b] = [c.upgrades[i - 1] as RealUpgrade, c.upgrades[i] as RealUpgrade];
      if (!(b.height > a.height && Date.parse(b.time) > Date.parse(a.time)))
        throw new Error(`real-upgrades.json: ${c.chain} ${b.name} is not after ${a.name}`);
    }
  return doc.chains;
}

const msOf = (u: RealUpgrade): number => Date.parse(u.time);
/** The realised mean block time (ms) from upgrade a to upgrade b. */
const meanBetween = (a: RealUpgrade, b: RealUpgrade): number => (msOf(b) - msOf(a)) / (b.height - a.height);

/** Step 1: the announced estimates' errors (h, + late) against their lead (h). */
function announcedLines(c: RealChain): BenchResult[] {
  const out: BenchResult[] = [];
  for (const u of c.upgrades) {
    if (u.announced === undefined) continue;
    const errH = (msOf(u) - Date.parse(u.announced.time)) / HOUR_MS;
    const leadH = (msOf(u) - Date.parse(u.announced.publishedAt)) / HOUR_MS;
    process.stderr.write(
      `planner real ${c.chain} ${u.name} (height ${u.height}): actual ${u.time}, announced ${u.announced.time} ` +
        `${(leadH / 24).toFixed(2)} days before: ${errH >= 0 ? "late" : "early"} by ${Math.abs(errH).toFixed(2)} h ` +
        `(${((100 * errH) / leadH).toFixed(2)}% of the lead)\n`,
    );
    out.push(
      result(
        `planner-real-announced-error-${c.chain}-${u.height}`,
        Math.abs(errH),
        "h |actual − announced|; baseline: lead h",
        leadH,
      ),
    );
  }
  return out;
}

/** Steps 2 and 3: the mean between upgrades, and the naive estimate from the interval before. */
function intervalLines(c: RealChain): BenchResult[] {
  const out: BenchResult[] = [];
  const means: number[] = [];
  for (let i = 1; i < c.upgrades.length; i++) {
    const [a, b] = [c.upgrades[i - 1] as RealUpgrade, c.upgrades[i] as RealUpgrade];
    const mean = meanBetween(a, b);
    means.push(mean);
    process.stderr.write(
      `planner real ${c.chain} ${a.name} → ${b.name}: ${b.height - a.height} blocks in ` +
        `${((msOf(b) - msOf(a)) / DAY_MS).toFixed(2)} days, mean ${(mean / 1000).toFixed(3)} s\n`,
    );
    if (i < 2 || msOf(b) - msOf(a) > HORIZON_MAX_MS) continue;
    const before = meanBetween(c.upgrades[i - 2] as RealUpgrade, a);
    const errH = (msOf(b) - (msOf(a) + (b.height - a.height) * before)) / HOUR_MS;
    process.stderr.write(
      `planner real ${c.chain} naive ${b.name} from ${a.name} with the mean before (${(before / 1000).toFixed(3)} s): ` +
        `${errH >= 0 ? "late" : "early"} by ${Math.abs(errH).toFixed(2)} h\n`,
    );
    out.push(
      result(
        `planner-real-naive-error-${c.chain}-${b.height}`,
        Math.abs(errH),
        "h |actual − naive|; baseline: horizon h",
        (msOf(b) - msOf(a)) / HOUR_MS,
      ),
    );
  }
  const spread = Math.max(...means) / Math.min(...means);
  out.push(
    result(`planner-real-mean-spread-${c.chain}`, spread, "max/min mean block time between upgrades; baseline: 1", 1),
  );
  return out;
}

/** Every line of the real fixtures (cheap: no simulation). */
export function realUpgradeLines(): BenchResult[] {
  return loadChains().flatMap((c) => [...announcedLines(c), ...intervalLines(c)]);
}
