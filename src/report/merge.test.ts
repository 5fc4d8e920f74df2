import { describe, expect, it } from "vitest";
import { liveness } from "../../properties/liveness.js";
import { runOnce } from "../../properties/run-once.js";
import { type CampaignOptions, runCampaign } from "../harness/campaign.js";
import { campaignJunit, renderJunit } from "../harness/junit.js";
import { type CheckSummary, checkSummary } from "../harness/summary.js";
import { mergeJunit, mergeSummaries, type ShardSummary } from "./merge.js";

/** Two properties of 6 runs in units of 2: 6 units, so each of 3 shards runs 2 (one block each, real chain runs). */
const CAMPAIGN: CampaignOptions = {
  seed: 424242,
  properties: [runOnce, liveness],
  runsPerProperty: 6,
  runsPerUnit: 2,
  maxCommands: 12,
  generationSamples: 50,
};

let tick = 0;
/** A clock that moves 1 ms per reading: wall times exist, and differ between runs as on real machines. */
const clock = () => tick++;

function run(shard: { index: number; count: number }) {
  const r = runCampaign({ ...CAMPAIGN, shard }, { clock });
  const runId = `check-20261124-120000-${CAMPAIGN.seed}${shard.count === 1 ? "" : `-s${shard.index}of${shard.count}`}`;
  const o = { runId, command: "check", startedAt: `2026-11-24T12:00:0${shard.index}.000Z`, commit: "abc123" };
  return {
    summary: checkSummary(r, { ...o, regressionFiles: new Map() }),
    junit: renderJunit([
      campaignJunit(r, { runId, commit: o.commit, timestamp: o.startedAt, regressionFiles: new Map() }),
    ]),
  };
}

/** A summary without what measures the machine (wall times, rates) and the run's name. */
function comparable(s: CheckSummary): unknown {
  return {
    ...s,
    runId: undefined,
    startedAt: undefined,
    wallMs: undefined,
    runsPerS: undefined,
    simulated: { ...s.simulated, chainMsPerWallMs: undefined },
    properties: s.properties.map((p) => ({
      ...p,
      wallMs: undefined,
      runsPerS: undefined,
      units: p.units.map((u) => ({ ...u, wallMs: undefined })),
    })),
  };
}

describe("chainsim report --merge: shards merge into the unsharded campaign", () => {
  const whole = run({ index: 1, count: 1 });
  const shards = [3, 1, 2].map((index) => ({ index, out: run({ index, count: 3 }) }));
  const inputs: ShardSummary[] = shards.map((s) => ({ source: `s${s.index}/summary.json`, summary: s.out.summary }));

  it("gives the summary of the campaign run on one machine (3 shards, in any order)", () => {
    expect(whole.summary.verdict).toBe("passed");
    expect(shards.every((s) => s.out.summary.runs === 4)).toBe(true);
    const merged = mergeSummaries(inputs);
    if (!merged.ok) throw new Error(merged.error);
    expect(comparable(merged.value)).toEqual(comparable(whole.summary));
    expect(merged.value.runId).toBe(`check-20261124-120000-${CAMPAIGN.seed}-merged`);
    expect(merged.value.startedAt).toBe("2026-11-24T12:00:01.000Z");
    // Shards run side by side: the merged wall time is the slowest shard's.
    expect(merged.value.wallMs).toBe(Math.max(...inputs.map((i) => i.summary.wallMs)));
  });

  it("refuses a missing shard, a shard given twice and a shard of another campaign, naming the file", () => {
    expect(mergeSummaries(inputs.slice(0, 2))).toEqual({ ok: false, error: "shard 2/3 missing" });
    expect(mergeSummaries([...inputs, inputs[1]!])).toEqual({
      ok: false,
      error: "s1/summary.json: shard 1/3 is also in s1/summary.json",
    });
    const other = { source: "x/summary.json", summary: { ...inputs[1]!.summary, seed: 7 } };
    const r = mergeSummaries([inputs[0]!, other, inputs[2]!]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^x\/summary\.json: not a shard of the campaign in s3\/summary\.json/);
    expect(mergeSummaries([])).toEqual({ ok: false, error: "nothing to merge: no shard summaries given" });
  });

  it("puts every shard's JUnit suite under one root with the counts summed", () => {
    const merged = mergeJunit(shards.map((s) => ({ source: `s${s.index}/junit.xml`, text: s.out.junit })));
    if (!merged.ok) throw new Error(merged.error);
    expect(merged.value.match(/<testsuite /g)).toHaveLength(3);
    expect(merged.value).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="chainsim" tests="6" failures="0" errors="0" time="/,
    );
    expect(merged.value.match(/<testcase /g)).toHaveLength(6);
    expect(mergeJunit([{ source: "bad.xml", text: "<html/>" }])).toEqual({
      ok: false,
      error: "bad.xml: not a JUnit XML document (no <testsuites> root)",
    });
  });
});
