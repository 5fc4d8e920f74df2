import type { TraceEvent, TraceEventOf } from "../src/chain/trace-events.js";
import { streamFor } from "../src/core/random.js";
import { HOLDS, type Property, type Verdict, violated } from "../src/harness/property.js";
import type { Session } from "../src/harness/session.js";
import { VALIDATORS } from "../src/harness/world.js";
import { scenarioFromData } from "../src/scenario/load.js";
import type { OperatorDocument } from "../src/scenario/operator-schema.js";
import type { ScenarioDocument } from "../src/scenario/schema.js";
import { buildSimulation, stopConditionOf } from "../src/scenario/simulate.js";

/** Simulated time the operators get after the session's end, in hours. */
const OPERATOR_HOURS = 72;

/**
 * eventually-operator-liveness: the session's scenario replayed with an operator model on every validator (drawn
 * from the run's seed, counter-based: cosmovisor with backups and downloads that may fail, falling back to a
 * person; cosmovisor alone, sometimes staged ahead of the plan height; a person alone, who may be absent, start a
 * wrong binary or install the new one ahead of time) instead of its sidecars, for three more days. Read from the
 * trace, for every upgrade-needed halt at height H:
 *
 * - once the validators whose operator has restarted them for H with the plan's binary (and that have not halted
 *   since for another reason, or been stopped) hold more than 2/3 of the power, block H is committed at that
 *   same instant;
 * - never before: when block H commits, the validators running a binary with the plan's handler hold more than 2/3;
 *   or, when block H skips the plan, the validators running with H among their skip heights do: the reference's
 *   coordinated skip (x/upgrade abci.go: a node started with `--unsafe-skip-upgrades H` logs `UPGRADE "<name>"
 *   SKIPPED at H`, clears the plan and goes on without the handler; the others still halt, so the skip commits
 *   only where more than 2/3 of the power skips).
 *
 * A halt for another reason (a diverged state, a downgrade) takes a validator out of the count: no operator can
 * restart it into the chain. An operator restart that starts a binary without the handler keeps counting, since the
 * operator says it switched: that is what the check is for.
 */
export const operatorLiveness: Property = {
  name: "operator-liveness",
  statement:
    "eventually: under the operator model the chain resumes once operators holding more than 2/3 of the power have restarted with the handler, and never before",
  kind: "end",
  catches: ["no-switch-after-failed-download"],
  check: checkOperatorLiveness,
};

/** Every validator's operator, drawn from the seed (exported for its unit test). */
export function population(seed: number): Record<string, OperatorDocument> {
  const out: Record<string, OperatorDocument> = {};
  for (const v of VALIDATORS) {
    const r = streamFor(seed, `operator-liveness/${v}`);
    const kind = r.next();
    const early = { probability: 0.15, lead: { uniform: { min: "0s", max: "3h" } } };
    const person = { reaction: { lognormal: { median: "30m", p90: "2h" } }, absent: 0.1, wrongBinary: 0.2, early };
    const backup = { duration: { uniform: { min: "0s", max: "40m" } } };
    out[v] =
      kind < 0.6
        ? {
            cosmovisor: {
              backup,
              autoDownload: { duration: { lognormal: { median: "20m", p90: "1h" } }, failure: 0.5 },
              preUpgrade: { exitCodes: [31, 0], maxRetries: r.int(0, 2) },
            },
            manual: person,
          }
        : kind < 0.8
          ? { cosmovisor: { backup, addUpgrade: early } }
          : { manual: person };
  }
  return out;
}

/** The session's document with operators in place of sidecars, running OPERATOR_HOURS past the session's end. */
function withOperators(s: Session): ScenarioDocument {
  const doc = s.document();
  const seed = doc.seed ?? 1;
  const ops = population(seed);
  const nodes = Object.fromEntries(
    VALIDATORS.map((v) => [
      v,
      { sidecar: { enabled: false, binaries: { v2: "v2", v3: "v3" } }, operator: ops[v] as OperatorDocument },
    ]),
  );
  const endMs = s.sim.nowMs + OPERATOR_HOURS * 3_600_000;
  return { ...doc, nodes, run: { untilTime: new Date(endMs).toISOString() } };
}

function checkOperatorLiveness(s: Session): Verdict {
  const doc = withOperators(s);
  const loaded = scenarioFromData("operator-liveness.yaml", doc);
  if (!loaded.ok)
    return violated(`the operator scenario does not load: ${loaded.error.map((e) => e.message).join("; ")}`);
  const built = replayed(loaded.value);
  if (typeof built === "string") return violated(built);
  const handlers = new Map(
    Object.entries(doc.binaries).map(([name, b]) => [name, new Set(Object.keys(b.upgrades ?? {}))] as const),
  );
  return checkTrace(built, handlers);
}

function replayed(scenario: Parameters<typeof buildSimulation>[0]): readonly TraceEvent[] | string {
  const built = buildSimulation(scenario, { engine: { keepTrace: true } });
  if (!built.ok) return built.error;
  built.value.run(stopConditionOf(scenario));
  return built.value.traceEvents();
}

interface NodeView {
  power: number;
  running: boolean;
  binary: string;
  /** The skip heights the node's process was started with (`--unsafe-skip-upgrades`). */
  skip: readonly number[];
  /** The height of the node's last upgrade-needed halt: the halt its operator is answering. */
  lastHalt: number | undefined;
  /** The halt height the operator restarted the node for, while it counts. */
  claimed: number | undefined;
}

/** The liveness check over one trace (exported for its unit test). */
export function checkTrace(events: readonly TraceEvent[], handlers: ReadonlyMap<string, ReadonlySet<string>>): Verdict {
  if (events[0]?.kind !== "genesis") return violated("the trace was not kept: nothing to check");
  const st: TraceState = { nodes: new Map(), total: 0, committed: 0, plans: new Map() };
  let instantMs: number | undefined;
  for (const [i, e] of events.entries()) {
    const t = "timeMs" in e ? e.timeMs : undefined;
    if (t !== undefined && instantMs !== undefined && t > instantMs) {
      const late = overdue(st, instantMs);
      if (late !== undefined) return violated(late);
    }
    if (t !== undefined) instantMs = t;
    const prev = events[i - 1];
    const next = events[i + 1];
    // The stop and start right after an operator's restart are that restart itself, not a step that took the node
    // down. Any other stop (a scenario step swapping or restarting the node by hand) ends the operator's claim.
    const restart =
      e.kind === "stop" &&
      next?.kind === "start" &&
      next.node === e.node &&
      prev?.kind === "operator" &&
      prev.phase === "restart" &&
      prev.node === e.node;
    const v = restart ? undefined : apply(st, e, handlers);
    if (v !== undefined) return violated(v);
  }
  const late = instantMs === undefined ? undefined : overdue(st, instantMs);
  return late === undefined ? HOLDS : violated(late);
}

interface TraceState {
  readonly nodes: Map<string, NodeView>;
  total: number;
  committed: number;
  /** Halt height → plan name. */
  readonly plans: Map<number, string>;
}

const powerOf = (st: TraceState, pred: (n: NodeView) => boolean) =>
  [...st.nodes.values()].filter(pred).reduce((p, n) => p + n.power, 0);

/** At the end of an instant: the violation when operators holding > 2/3 have restarted for the next height. */
function overdue(st: TraceState, atMs: number): string | undefined {
  const h = st.committed + 1;
  const claimed = powerOf(st, (n) => n.claimed === h);
  if (3 * claimed <= 2 * st.total) return undefined;
  return `operators holding ${claimed} of ${st.total} power had restarted their nodes for height ${h} by ${new Date(atMs).toISOString()}, but the chain was still at ${st.committed}`;
}

function apply(st: TraceState, e: TraceEvent, handlers: ReadonlyMap<string, ReadonlySet<string>>): string | undefined {
  const n = "node" in e ? st.nodes.get(e.node) : undefined;
  switch (e.kind) {
    case "genesis":
      for (const g of e.nodes)
        st.nodes.set(g.name, {
          power: g.power,
          running: true,
          binary: g.binary,
          skip: g.skip,
          lastHalt: undefined,
          claimed: undefined,
        });
      st.total = e.nodes.reduce((p, g) => p + g.power, 0);
      return undefined;
    case "start":
      if (n !== undefined) Object.assign(n, { running: true, binary: e.binary, skip: e.skip });
      return undefined;
    case "stop":
      if (n !== undefined) Object.assign(n, { running: false, claimed: undefined });
      return undefined;
    case "halt": {
      if (n === undefined) return undefined;
      n.running = false;
      const name = e.haltKind === "upgrade-needed" ? /^UPGRADE "(.*)" NEEDED/.exec(e.message)?.[1] : undefined;
      if (name !== undefined) st.plans.set(e.height, name);
      if (e.haltKind === "upgrade-needed") n.lastHalt = e.height;
      // A restarted node that halts for the same upgrade keeps counting: its operator said it switched.
      if (!(e.haltKind === "upgrade-needed" && n.claimed === e.height)) n.claimed = undefined;
      return undefined;
    }
    case "operator":
      // A restart answers the node's last upgrade halt. It claims the next height only when that halt is the one the
      // chain waits at: an operator who answers an earlier halt the chain has since passed (a person who installs the
      // binary of the previous plan) restarts into the next halt, and the claim comes with the restart that answers it.
      if (n !== undefined && e.phase === "restart" && n.lastHalt === st.committed + 1) n.claimed = st.committed + 1;
      // Cosmovisor stopping the node (it saw the plan again after a wrong binary halted) takes it down: the claim of
      // the restart before it ends, and the next restart makes a new one.
      if (n !== undefined && e.phase === "stop") n.claimed = undefined;
      return undefined;
    case "block": {
      const late = blockTooEarly(st, e, handlers);
      if (late !== undefined) return late;
      st.committed = e.height;
      for (const m of st.nodes.values())
        if (m.claimed !== undefined && m.claimed <= st.committed) m.claimed = undefined;
      return undefined;
    }
    case "blocks":
      st.committed = Math.max(st.committed, e.to);
      return undefined;
    default:
      return undefined;
  }
}

/** "Never before" (see the header): block `e` at a halt's height committed without > 2/3 applying or skipping it. */
function blockTooEarly(
  st: TraceState,
  e: TraceEventOf<"block">,
  handlers: ReadonlyMap<string, ReadonlySet<string>>,
): string | undefined {
  const plan = st.plans.get(e.height);
  if (plan === undefined) return undefined;
  if (e.skipped === plan) {
    const skipping = powerOf(st, (m) => m.running && m.skip.includes(e.height));
    return 3 * skipping > 2 * st.total
      ? undefined
      : `block ${e.height} skipped "${plan}" while nodes with ${e.height} among their skip heights hold only ${skipping} of ${st.total}`;
  }
  const ready = powerOf(st, (m) => m.running && (handlers.get(m.binary)?.has(plan) ?? false));
  return 3 * ready > 2 * st.total
    ? undefined
    : `block ${e.height} committed while nodes running a binary with the "${plan}" handler hold only ${ready} of ${st.total}`;
}
