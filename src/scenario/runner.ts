import { RUN_BLOCKS_MAX } from "../chain/records.js";
import { formatRfc3339 } from "../core/go/time.js";
import { checkExpectations } from "./expect.js";
import type { Failure } from "./failure.js";
import type { Scenario } from "./model.js";
import { buildSimulation, type Simulation, stopConditionOf } from "./simulate.js";
import { unfiredStepFailures } from "./unfired.js";

/** The `chainsim run --json` object of one scenario (docs/scenario-format.md §3); key order as the spec lists it. */
export interface RunReport {
  readonly name: string;
  readonly file: string;
  readonly seed: number;
  readonly passed: boolean;
  readonly failures: readonly Failure[];
  readonly final: {
    readonly height: number;
    readonly time: string;
    readonly halted: null | { readonly height: number; readonly nodes: readonly string[]; readonly reason: string };
    readonly plan: null | { readonly name: string; readonly height: number; readonly info: string };
    readonly applied: Readonly<Record<string, number>>;
    readonly moduleVersions: Readonly<Record<string, number>>;
    readonly protocolVersion: number;
    readonly appHash: string;
    readonly stores: readonly string[];
    readonly nodes: Readonly<
      Record<
        string,
        {
          readonly binary: string;
          readonly status: string;
          readonly height: number;
          readonly skipUpgradeHeights: readonly number[];
          readonly upgradeInfo: null | { readonly name: string; readonly height: number; readonly info: string };
        }
      >
    >;
  };
  readonly proposals: readonly {
    readonly id: number;
    readonly label: string | null;
    readonly status: string;
    readonly submitHeight: number;
    readonly depositEndTime: string | null;
    readonly votingStartTime: string | null;
    readonly votingEndTime: string | null;
    readonly failedReason: string;
  }[];
  readonly halts: readonly {
    readonly node: string;
    readonly height: number;
    readonly kind: string;
    readonly message: string;
  }[];
  readonly handlerRuns: Readonly<Record<string, number>>;
  readonly steps: readonly {
    readonly index: number;
    readonly label: string | null;
    readonly action: string;
    readonly height: number | null;
    readonly ok: boolean;
    readonly error: string | null;
    readonly result: unknown;
  }[];
  readonly blocks: number;
  readonly traceHash: string;
  readonly wallMs: number;
}

export interface RunOutcome {
  readonly report: RunReport;
  readonly sim: Simulation;
}

export interface RunOptions {
  /** Overrides the scenario's seed. */
  readonly seed?: number;
  readonly keepTrace?: boolean;
  /** Wall clock for `wallMs` (injected: the core never reads the host clock). */
  readonly wallClockMs?: () => number;
  readonly noFastPath?: boolean;
}

const ms = (t: number | null) => (t === null ? null : formatRfc3339(t));
const byName = <V>(m: ReadonlyMap<string, V>): Record<string, V> =>
  Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Runs one validated scenario to its stop condition and checks its inline and final expectations. */
export function runScenario(s: Scenario, o: RunOptions = {}): RunOutcome {
  const clock = o.wallClockMs ?? (() => 0);
  const start = clock();
  const inlineFailures: Failure[] = [];
  const built = buildSimulation(s, {
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    engine: { keepTrace: o.keepTrace ?? false, noFastPath: o.noFastPath ?? false },
    inlineCheck: (index, e, sim) => {
      const f = checkExpectations(`steps[${index}].expect`, e, sim);
      inlineFailures.push(...f);
      return f.map((x) => x.at);
    },
    queryFailed: (f) => inlineFailures.push(f),
  });
  if (!built.ok) throw new Error(`scenario ${s.file}: ${built.error}`);
  const sim = built.value;
  const stop = stopConditionOf(s);
  const blocksBefore = sim.blocksCommitted;
  sim.run(stop);
  // A run cut short by the block limit says so, rather than leaving its expectations to fail without a reason.
  const cut =
    stop.maxBlocks === RUN_BLOCKS_MAX &&
    s.run.maxBlocks === undefined &&
    sim.blocksCommitted - blocksBefore >= RUN_BLOCKS_MAX
      ? [
          {
            at: "run",
            expected:
              s.run.untilTime === undefined ? `height ${s.run.untilHeight}` : `time ${formatRfc3339(s.run.untilTime)}`,
            actual: `stopped at height ${sim.height}: a run commits at most ${RUN_BLOCKS_MAX} blocks`,
          },
        ]
      : [];
  const failures = [
    ...inlineFailures,
    ...cut,
    ...unfiredStepFailures(s, sim),
    ...(s.expect === undefined ? [] : checkExpectations("expect", s.expect, sim)),
  ];
  return { report: reportOf(s, sim, failures, o.seed ?? s.seed, clock() - start), sim };
}

export function reportOf(
  s: Scenario,
  sim: Simulation,
  failures: readonly Failure[],
  seed: number,
  wallMs: number,
): RunReport {
  const c = sim.committed();
  const halted = sim.haltedInfo();
  const nodes: RunReport["final"]["nodes"] = Object.fromEntries(
    sim.nodeNames().map((name) => {
      const st = sim.nodeStatus(name)!;
      const info = sim.host.readUpgradeInfo(sim.nodeState(name)!);
      return [
        name,
        {
          binary: st.binary,
          status: st.status,
          height: st.height,
          skipUpgradeHeights: [...st.skip],
          upgradeInfo: info.kind === "ok" ? { name: info.name, height: info.height, info: info.info } : null,
        },
      ];
    }),
  );
  return {
    name: s.name,
    file: s.file,
    seed,
    passed: failures.length === 0,
    failures,
    final: {
      height: sim.height,
      time: formatRfc3339(sim.nowMs),
      halted: halted === null ? null : { height: halted.height, nodes: halted.nodes, reason: halted.reason },
      plan: c?.plan ?? null,
      applied: byName(c?.applied ?? new Map()),
      moduleVersions: byName(c?.moduleVersions ?? new Map()),
      protocolVersion: c?.protocolVersion ?? 0,
      appHash: c?.appHash ?? sim.blocks.appHash(sim.height) ?? "",
      stores: [...(c?.stores ?? [])],
      nodes,
    },
    proposals: sim.proposals.map((p) => ({
      id: Number(p.id),
      label: p.label,
      status: p.status,
      submitHeight: p.submitHeight,
      depositEndTime: ms(p.depositEndTimeMs),
      votingStartTime: ms(p.votingStartTimeMs),
      votingEndTime: ms(p.votingEndTimeMs),
      failedReason: p.failedReason,
    })),
    halts: sim.halts.map((h) => ({ node: h.node, height: h.height, kind: h.kind, message: h.message })),
    handlerRuns: byName(sim.handlerRuns),
    steps: sim.stepResults().map((r) => ({
      index: r.index,
      label: r.label,
      action: r.action,
      height: r.height,
      ok: r.ok,
      error: r.error,
      result: r.result,
    })),
    blocks: sim.height,
    traceHash: sim.traceHash(),
    wallMs: Math.round(wallMs * 1000) / 1000,
  };
}
