/**
 * `chainsim explore`: registers the command with cancel-window (here) and halt-recovery (explore-halt-recovery.ts;
 * main.ts adds upgrade-height, explore-height.ts), and runs `explore cancel-window`:
 *
 * 1. parse the flags (explore-flags.ts);
 * 2. run the exploration or the sweep on worker threads, with a progress bar on a terminal;
 * 3. print it (text, CSV or JSON) and write the JSON (`--out`) and the chart (`--chart`), each whole or not at all.
 *
 * Exit 0; 1 when a series shows anomalies or fails its verification; 2 for a bad flag or a file that cannot be
 * written (one line on stderr).
 */
import { availableParallelism } from "node:os";
import { SingleBar } from "cli-progress";
import type { Command } from "commander";
import type { Result } from "../core/errors.js";
import { explorationChart, sweepChart, type VegaLiteSpec } from "../explore/chart.js";
import { exploringCancelWindow } from "../explore/explore.js";
import { runOnWorkers, WORKERS_MAX } from "../explore/pool.js";
import { explorationCsv, explorationText, sweepCsv, sweepText } from "../explore/render.js";
import type { Exploration } from "../explore/summarize.js";
import { type SweepExploration, sweepingCancelWindow } from "../explore/sweep.js";
import { writeFileAtomic } from "../node/atomic-write.js";
import { ExitCode } from "./exit.js";
import { type CancelWindowFlags, DEFAULT_OUT, parseCancelWindowFlags, SWEEP_POINTS } from "./explore-flags.js";
import { registerHaltRecovery } from "./explore-halt-recovery.js";

export interface ExploreIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  /** Whether stderr is a terminal (progress bar). */
  readonly isTty: boolean;
  readonly writeFile: (path: string, text: string) => void;
  readonly nowMs: () => number;
  /** Worker threads by default (`--workers`): the cores of the machine. */
  readonly cores: number;
}

/** Renders a Vega-Lite spec to SVG with vega (headless, no canvas). */
export async function renderSvg(spec: VegaLiteSpec): Promise<string> {
  const [vega, vl] = await Promise.all([import("vega"), import("vega-lite")]);
  const compiled = vl.compile(spec as unknown as Parameters<typeof vl.compile>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  return view.toSVG();
}

/** Runs the command; returns the exit code. */
export async function cancelWindowCommand(f: CancelWindowFlags, io: ExploreIo): Promise<number> {
  const req = parseCancelWindowFlags(f, io.cores);
  if (!req.ok) {
    io.err(`Error: ${req.error}`);
    return ExitCode.usage;
  }
  const { config, sweep } = req.value;
  const bar = io.isTty
    ? new SingleBar({
        format: "cancel-window [{bar}] {value}/{total} engine runs | {duration}s",
        stream: process.stderr,
      })
    : undefined;
  let started = false;
  const onProgress = (done: number, total: number) => {
    if (bar === undefined) return;
    if (!started) {
      bar.start(total, 0);
      started = true;
    }
    bar.update(done);
  };
  const t0 = io.nowMs();
  const workers = req.value.workers;
  const result: Result<Exploration | SweepExploration, string> =
    sweep === undefined
      ? await runOnWorkers(exploringCancelWindow(config), workers, { onProgress })
      : await runOnWorkers(sweepingCancelWindow(config, sweep), workers, { onProgress });
  if (started) bar?.stop();
  if (!result.ok) {
    io.err(`Error: ${result.error}`);
    return ExitCode.usage;
  }
  const x = result.value;
  const wallMs = io.nowMs() - t0;
  const json = JSON.stringify({ ...x, wallMs }, null, 2);
  const lines =
    req.value.format === "json"
      ? [json]
      : x.kind === "cancel-window"
        ? req.value.format === "csv"
          ? explorationCsv(x)
          : explorationText(x)
        : req.value.format === "csv"
          ? sweepCsv(x)
          : sweepText(x);
  for (const l of lines) io.out(l);
  const wrote: string[] = [];
  try {
    io.writeFile(req.value.out, `${json}\n`);
    wrote.push(req.value.out);
    if (req.value.chart !== undefined) {
      const spec = x.kind === "cancel-window" ? explorationChart(x) : sweepChart(x);
      io.writeFile(req.value.chart, await renderSvg(spec));
      wrote.push(req.value.chart);
    }
  } catch (e) {
    io.err(`Error: ${e instanceof Error ? e.message : String(e)}`);
    return ExitCode.usage;
  }
  const note = `${x.engineRuns} engine runs in ${(wallMs / 1000).toFixed(1)} s wall; wrote ${wrote.join(", ")}`;
  if (req.value.format === "text") io.out(`   (${note})`);
  else io.err(note);
  const series = x.kind === "cancel-window" ? [x] : x.series;
  const broken = series.some((s) => s.anomalies.length > 0 || s.verification?.ok === false);
  return broken ? ExitCode.failed : ExitCode.ok;
}

/** The host's write of `--out` and `--chart`: the directory made, the file written whole or not at all. */
const nodeWriteFile = (path: string, text: string): void => writeFileAtomic(path, text, { makeDir: true });

export function registerExplore(
  program: Command,
  io: { out: (s: string) => void; err: (s: string) => void },
  setExit: (c: number) => void,
): Command {
  const explore = program.command("explore").description("explore a question by Monte Carlo runs of the chain engine");
  registerHaltRecovery(explore, { ...io, renderSvg }, setExit);
  explore
    .command("cancel-window")
    .description(
      "how far ahead must an upgrade be scheduled so that a cancel can still pass? (docs/fidelity.md §3.11, measured on the engine)",
    )
    .option("--deposit-period <dur>", "gov max_deposit_period D (Go duration)", "48h")
    .option("--voting-period <dur>", "gov voting_period V", "48h")
    .option("--expedited-voting-period <dur>", "gov expedited_voting_period (default 24h, or V/2 when V <= 24h)")
    .option("--expedited", "the cancel proposal is expedited")
    .option("--safety-delta <dur>", "S: from the upgrade passing to the cancel's submission (after-pass)", "24h")
    .option("--block-time <dur>", "fixed block interval")
    .option(
      "--block-time-min <dur>",
      "uniform block times: smallest interval (default 5s; with --block-time-mean: lower clip)",
    )
    .option(
      "--block-time-max <dur>",
      "uniform block times: largest interval (default 7s; with --block-time-mean: upper clip)",
    )
    .option("--block-time-mean <dur>", "normal block times: mean (with --block-time-stddev)")
    .option("--block-time-stddev <dur>", "normal block times: standard deviation")
    .option(
      "--deposit-delay <dur|from..to>",
      "when each proposal reaches min_deposit after submission, within 0..D (D = the deposit period; default D, the worst case)",
    )
    .option("--cancel-deposit-delay <dur|from..to>", "the same for the cancel only (default: --deposit-delay)")
    .option("--offset <n>", "one plan offset (plan height - submission height) to evaluate")
    .option("--offset-min <n>", "smallest offset searched (default 1)")
    .option("--offset-max <n>", "largest offset searched (default 4 x the rule of thumb at the mean block time)")
    .option("--strategy <s>", "after-pass | during-voting", "after-pass")
    .option("--runs <n>", "Monte Carlo runs per configuration", "200")
    .option("--seed <n>", "seed of the exploration (trial seeds derive from it)", "1")
    .option("--confidence <p>", "target probability that the cancel lands", "0.999")
    .option("--sweep <axes>", "offset,spread | offset,deposit-delay")
    .option("--sweep-values <list>", "comma-separated durations of the swept axis (default: 5 values)")
    .option("--offset-step <n>", "sweep: offset grid step (default: --points offsets across the transition)")
    .option("--points <n>", `sweep: offsets in the grid (default ${SWEEP_POINTS})`)
    .option("--format <f>", "text | csv | json (default: text)")
    .option("--json", "machine output: the same as --format json")
    .option("--chart <file.svg>", "write a chart (SVG, rendered with vega-lite)")
    .option("--out <file>", "write the exploration as JSON", DEFAULT_OUT)
    .option(
      "--workers <n>",
      `worker threads running the engine runs (default: one per core; 1 runs in this thread; results are the same for any count; max ${WORKERS_MAX})`,
    )
    .action(async (opts: CancelWindowFlags) => {
      setExit(
        await cancelWindowCommand(opts, {
          ...io,
          isTty: process.stderr.isTTY === true,
          writeFile: nodeWriteFile,
          nowMs: () => performance.now(),
          cores: availableParallelism(),
        }),
      );
    });
  return explore;
}
