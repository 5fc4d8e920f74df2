import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { unixMs } from "../core/brand.js";
import { parseRfc3339 } from "../core/go/time.js";
import type { VegaLiteSpec } from "../explore/chart.js";
import type { RecoveryMember, RecoverySetup } from "../explore/halt-recovery.js";
import {
  exploreHaltRecovery,
  type HaltRecoveryExploration,
  haltRecoveryChart,
  haltRecoveryText,
} from "../explore/halt-recovery-report.js";
import { applyWhatIf, type WhatIf } from "../explore/what-if.js";
import { writeFileAtomic } from "../node/atomic-write.js";
import { formatScenarioError } from "../scenario/errors.js";
import { parseScenario } from "../scenario/load.js";
import { durationTextMs } from "../scenario/operator-schema.js";
import { type OperatorsFile, operatorFromFile, parseOperatorsFile } from "../scenario/operators-file.js";
import { type Profile, parseProfile } from "../scenario/profile.js";
import { buildSimulation, stopConditionOf } from "../scenario/simulate.js";
import { parseTimeSpec, resolveTimeSpec } from "../scenario/time.js";
import { ExitCode } from "./exit.js";

/**
 * `chainsim explore halt-recovery <scenario> | --profile FILE [--operators FILE] [--at TIME | --height H] [--runs N]
 * [--seed N] [--what-if TEXT]... [--json] [--chart FILE.svg]` (src/explore/halt-recovery.ts).
 *
 * 1. The population: the scenario's validators and their nodes' operators (or sidecars), or the profile's
 *    validators; `--operators FILE` replaces the operators (a profile needs it).
 * 2. The halt: `--at` (RFC 3339, or `+<duration>` after the scenario's genesis / the profile's time), `--height`
 *    (its time at the mean block time), else the scenario's first upgrade-needed halt (the scenario is run), else
 *    the profile's plan height.
 * 3. The Monte Carlo, what-ifs, time-of-day sweep; text, `--json`, `--chart` (written whole, then renamed).
 * Bad input: one line on stderr, exit 2.
 */

export interface HaltRecoveryFlags {
  readonly profile?: string;
  readonly operators?: string;
  readonly at?: string;
  readonly height?: string;
  readonly runs?: string;
  readonly seed?: string;
  readonly whatIf?: readonly string[];
  readonly json?: boolean;
  readonly chart?: string;
}

const RUNS_MAX = 1_000_000;

class Bad extends Error {}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new Bad(`${path}: ${e instanceof Error && "code" in e ? String(e.code) : "cannot read"}`);
  }
}

function intFlag(name: string, v: string | undefined, dflt: number, min: number, max: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!/^[0-9]+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new Bad(`${name} must be an integer in ${min}..${max}, got ${JSON.stringify(v)}`);
  return n;
}

function loadOperators(path: string | undefined): OperatorsFile | undefined {
  if (path === undefined) return undefined;
  const r = parseOperatorsFile(path, readText(path));
  if (!r.ok) throw new Bad(formatScenarioError(r.error[0]!));
  return r.value;
}

interface Population {
  readonly members: RecoveryMember[];
  readonly seed: number;
  readonly originMs: number;
  readonly meanBlockMs: number;
  /** The halt when no flag sets it, and where it comes from. */
  readonly halt: () => { atMs: number; from: string; plan: string };
}

function fromScenario(file: string, ops: OperatorsFile | undefined): Population {
  const r = parseScenario(file, readText(file));
  if (!r.ok) throw new Bad(formatScenarioError(r.error[0]!));
  const s = r.value;
  const members = s.chain.validators.map((v): RecoveryMember => {
    const n = s.nodes.get(v.name);
    const binaries = n?.sidecar.binaries ?? new Map<string, string>();
    const operator = ops === undefined ? n?.operator : operatorFromFile(ops, v.name, binaries);
    const sidecar = ops === undefined && operator === undefined && n?.sidecar.enabled === true;
    return { name: v.name, power: v.power, operator, sidecarDelayMs: sidecar ? n?.sidecar.delayMs : undefined };
  });
  const bt = s.chain.blockTime;
  const meanBlockMs =
    bt.kind === "fixed" ? bt.intervalMs : bt.kind === "uniform" ? (bt.minMs + bt.maxMs) / 2 : bt.meanMs;
  return {
    members,
    seed: s.seed,
    originMs: s.chain.genesisTime,
    meanBlockMs,
    halt: () => {
      const built = buildSimulation(s, { engine: { keepTrace: true } });
      if (!built.ok) throw new Bad(`${file}: ${built.error}`);
      built.value.run(stopConditionOf(s));
      for (const e of built.value.traceEvents())
        if (e.kind === "halt" && e.haltKind === "upgrade-needed")
          return {
            atMs: e.timeMs,
            from: `the scenario's first upgrade halt, height ${e.height}`,
            plan: /^UPGRADE "(.*)" NEEDED/.exec(e.message)?.[1] ?? "",
          };
      throw new Bad(`${file}: the scenario never halts for an upgrade: give --at TIME or --height H`);
    },
  };
}

function profileMeanBlockMs(p: Profile): number {
  const w = p.history?.meanBlockTime.window;
  if (w !== undefined) return durationTextMs(w) ?? 6000;
  const b = p.chain.blockTime;
  if (b === undefined) return 6000;
  if (typeof b === "string") return durationTextMs(b) ?? 6000;
  const ms = (t: string | undefined) => (t === undefined ? undefined : durationTextMs(t));
  return ms(b.mean) ?? ((ms(b.min) ?? 6000) + (ms(b.max) ?? 6000)) / 2;
}

function fromProfile(file: string, ops: OperatorsFile | undefined): Population {
  const r = parseProfile(file, readText(file));
  if (!r.ok) throw new Bad(formatScenarioError(r.error[0]!));
  if (ops === undefined) throw new Bad("--profile needs --operators FILE: a profile does not say who runs the nodes");
  const p = r.value;
  const at = parseRfc3339(p.at.time);
  if (!at.ok) throw new Bad(`${file}: at.time: ${at.error}`);
  const meanBlockMs = profileMeanBlockMs(p);
  return {
    members: (p.chain.validators ?? []).map((v) => ({
      name: v.name,
      power: v.power,
      operator: operatorFromFile(ops, v.name, new Map()),
      sidecarDelayMs: undefined,
    })),
    seed: 1,
    originMs: at.value,
    meanBlockMs,
    halt: () => {
      if (p.plan === null) throw new Bad(`${file}: no plan is scheduled: give --at TIME or --height H`);
      const h = Number(p.plan.height);
      return {
        atMs: at.value + (h - p.at.height) * meanBlockMs,
        from: `the profile's plan at height ${h}, at the mean block time`,
        plan: p.plan.name,
      };
    },
  };
}

/** Parses the flags and files into the request; throws Bad on bad input. */
function request(target: string | undefined, f: HaltRecoveryFlags) {
  if ((target === undefined) === (f.profile === undefined))
    throw new Bad("give a scenario file or --profile FILE (one of them)");
  if (f.at !== undefined && f.height !== undefined) throw new Bad("give --at or --height, not both");
  const runs = intFlag("--runs", f.runs, 1000, 1, RUNS_MAX);
  const ops = loadOperators(f.operators);
  const source = target ?? (f.profile as string);
  const pop = target !== undefined ? fromScenario(target, ops) : fromProfile(source, ops);
  if (pop.members.length === 0) throw new Bad(`${source}: no validators`);
  const seed = intFlag("--seed", f.seed, pop.seed, 0, Number.MAX_SAFE_INTEGER);
  let halt: { atMs: number; from: string; plan: string };
  if (f.at !== undefined) {
    const t = parseTimeSpec(f.at);
    if (!t.ok) throw new Bad(`--at: ${t.error}`);
    halt = { atMs: resolveTimeSpec(t.value, unixMs(pop.originMs)), from: `--at ${f.at}`, plan: "" };
  } else if (f.height !== undefined) {
    const h = intFlag("--height", f.height, 1, 1, Number.MAX_SAFE_INTEGER);
    halt = { atMs: pop.originMs + h * pop.meanBlockMs, from: `--height ${h} at the mean block time`, plan: "" };
  } else halt = pop.halt();
  const setup: RecoverySetup = { members: pop.members, haltMs: halt.atMs, seed, binary: halt.plan || "the new binary" };
  const whatIfs: WhatIf[] = [];
  for (const text of f.whatIf ?? []) {
    const w = applyWhatIf(text, pop.members);
    if (!w.ok) throw new Bad(w.error);
    whatIfs.push(w.value);
  }
  return { setup, runs, whatIfs, source, haltFrom: halt.from };
}

export interface HaltRecoveryIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
  /** Vega-Lite to SVG (explore.ts's renderer, passed in so the two files do not import each other). */
  readonly renderSvg: (spec: VegaLiteSpec) => Promise<string>;
}

export async function haltRecoveryCommand(
  target: string | undefined,
  f: HaltRecoveryFlags,
  io: HaltRecoveryIo,
): Promise<number> {
  let x: HaltRecoveryExploration;
  try {
    x = exploreHaltRecovery(request(target, f));
  } catch (e) {
    if (!(e instanceof Bad)) throw e;
    io.err(`Error: ${e.message}`);
    return ExitCode.usage;
  }
  if (f.chart !== undefined) {
    try {
      writeFileAtomic(f.chart, await io.renderSvg(haltRecoveryChart(x)));
    } catch (e) {
      io.err(`Error: --chart ${f.chart}: ${e instanceof Error ? e.message : String(e)}`);
      return ExitCode.usage;
    }
  }
  if (f.json === true) io.out(JSON.stringify(x, null, 2));
  else for (const l of haltRecoveryText(x)) io.out(l);
  return ExitCode.ok;
}

export function registerHaltRecovery(explore: Command, io: HaltRecoveryIo, setExit: (c: number) => void): void {
  explore
    .command("halt-recovery")
    .argument("[scenario]", "scenario file (or --profile)")
    .description(
      "how long does the chain stay down after an upgrade halt, and whom does it wait for? (Monte Carlo over the operator model, docs/fidelity.md §4.6)",
    )
    .option("--profile <file>", "a rehearsal profile instead of a scenario (needs --operators)")
    .option("--operators <file>", "operators file: `operators: {default: <operator>, <validator>: <operator>}`")
    .option("--at <time>", "the halt time: RFC 3339, or +<duration> after genesis (the profile's time)")
    .option("--height <h>", "the halt height, timed at the mean block time")
    .option("--runs <n>", "Monte Carlo runs", "1000")
    .option("--seed <n>", "seed of the draws (default: the scenario's)")
    .option(
      "--what-if <text>",
      "'no-backups' or '<node|all>: cosmovisor|autoDownload|no-backup|manual|on-call|never ...' (repeatable)",
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .option("--json", "machine output")
    .option("--chart <file.svg>", "write a chart (SVG)")
    .action(async (scenario: string | undefined, opts: HaltRecoveryFlags) => {
      setExit(await haltRecoveryCommand(scenario, opts, io));
    });
}
