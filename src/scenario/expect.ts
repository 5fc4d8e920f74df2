import { addressOfName } from "../core/address.js";
import { present } from "../core/assert.js";
import type { Event, LogLine } from "../core/context.js";
import { expectationJson, type Failure } from "./failure.js";
import type { EventExpectation, Expectations, LogExpectation, PlanExpectation } from "./model.js";
import { committedBank, type Simulation } from "./simulate.js";

const json = expectationJson;

/** Coins in canonical form: zero amounts dropped, sorted by denom, `""` for none (how a bank query prints them). */
const coinsText = (coins: readonly { readonly denom: string; readonly amount: bigint }[]): string =>
  coins
    .filter((c) => c.amount !== 0n)
    .sort((a, b) => (a.denom < b.denom ? -1 : a.denom > b.denom ? 1 : 0))
    .map((c) => `${c.amount}${c.denom}`)
    .join(",");
const same = (a: unknown, b: unknown): boolean => json(a) === json(b);
const sortedObj = <V>(m: ReadonlyMap<string, V>): Record<string, V> =>
  Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

const planOut = (p: { name: string; height: number | bigint; info: string } | null, withInfo: boolean) =>
  p === null
    ? null
    : withInfo
      ? { name: p.name, height: Number(p.height), info: p.info }
      : { name: p.name, height: Number(p.height) };
const planWanted = (p: PlanExpectation | null) =>
  p === null
    ? null
    : p.info === undefined
      ? { name: p.name, height: Number(p.height) }
      : { name: p.name, height: Number(p.height), info: p.info };

/** What every group of checks reads: the expectations, the simulation, its committed state, and where to report. */
interface CheckContext {
  readonly e: Expectations;
  readonly sim: Simulation;
  readonly committed: ReturnType<Simulation["committed"]>;
  readonly fail: (key: string, expected: unknown, actual: unknown) => void;
}

/**
 * Checks expectations against the simulation at this point. `at` is the path of the `expect` block in the
 * file (`expect` or `steps[3].expect`); each failure appends its key. Pure reads. The groups run in a fixed order,
 * so a scenario's failures are always listed in the same order.
 */
export function checkExpectations(at: string, e: Expectations, sim: Simulation): Failure[] {
  const out: Failure[] = [];
  const c: CheckContext = {
    e,
    sim,
    committed: sim.committed(),
    fail: (key, expected, actual) => out.push({ at: `${at}.${key}`, expected, actual }),
  };
  checkChain(c);
  checkGovAndHalts(c);
  checkNodes(c);
  checkBank(c);
  checkEmitted(c);
  checkSteps(c);
  return out;
}

/** height, halted, plan, applied, moduleVersions, protocolVersion. */
function checkChain({ e, sim, committed, fail }: CheckContext): void {
  if (e.height !== undefined && sim.height !== e.height) fail("height", e.height, sim.height);
  if (e.halted !== undefined) {
    const h = sim.haltedInfo();
    if (e.halted === false) {
      if (h !== null) fail("halted", false, { height: h.height, nodes: h.nodes });
    } else {
      const actual = h === null ? false : { height: h.height, nodes: [...h.nodes].sort() };
      const wanted =
        e.halted.nodes === undefined
          ? { height: e.halted.height }
          : { height: e.halted.height, nodes: [...e.halted.nodes].sort() };
      const cmp = h === null ? false : e.halted.nodes === undefined ? { height: h.height } : actual;
      if (!same(wanted, cmp)) fail("halted", wanted, actual);
    }
  }
  if (e.plan !== undefined) {
    const wanted = planWanted(e.plan);
    const actual = planOut(committed?.plan ?? null, e.plan?.info !== undefined);
    if (!same(wanted, actual)) fail("plan", wanted, planOut(committed?.plan ?? null, true));
  }
  if (e.applied !== undefined) {
    for (const [name, height] of e.applied) {
      const actual = committed?.applied.get(name) ?? 0;
      if (actual !== height) fail(`applied.${name}`, height, actual);
    }
  }
  if (e.moduleVersions !== undefined) {
    const wanted = sortedObj(e.moduleVersions);
    const actual = sortedObj(committed?.moduleVersions ?? new Map());
    if (!same(wanted, actual)) fail("moduleVersions", wanted, actual);
  }
  if (e.protocolVersion !== undefined && (committed?.protocolVersion ?? 0) !== e.protocolVersion)
    fail("protocolVersion", e.protocolVersion, committed?.protocolVersion ?? 0);
}

/** proposals, halts, handlerRuns. */
function checkGovAndHalts({ e, sim, fail }: CheckContext): void {
  if (e.proposals !== undefined) {
    for (const [label, want] of e.proposals) {
      const p = sim.proposalByLabel(label);
      const actual = p?.status ?? "not submitted";
      if (actual !== want.status) fail(`proposals.${label}`, want.status, actual);
      else if (want.failedReason !== undefined && p?.failedReason !== want.failedReason)
        fail(`proposals.${label}.failedReason`, want.failedReason, p?.failedReason ?? null);
    }
  }
  if (e.halts !== undefined) {
    const halts = sim.halts.map((h) => ({ node: h.node, height: h.height, kind: h.kind, message: h.message }));
    const ok =
      halts.length === e.halts.length &&
      e.halts.every((w, i) => {
        const h = halts[i]!;
        return (
          (w.node === undefined || w.node === h.node) &&
          (w.height === undefined || w.height === h.height) &&
          (w.kind === undefined || w.kind === h.kind) &&
          (w.message === undefined || w.message === h.message)
        );
      });
    if (!ok) fail("halts", e.halts, halts);
  }
  if (e.handlerRuns !== undefined) {
    for (const [name, n] of e.handlerRuns) {
      const actual = sim.handlerRuns.get(name) ?? 0;
      if (actual !== n) fail(`handlerRuns.${name}`, n, actual);
    }
  }
}

/** upgradeInfo, nodes, stores. */
function checkNodes({ e, sim, committed, fail }: CheckContext): void {
  if (e.upgradeInfo !== undefined) {
    for (const [node, want] of e.upgradeInfo) {
      const state = sim.nodeState(node);
      const read = state === undefined ? undefined : sim.host.readUpgradeInfo(state);
      const actual =
        read === undefined || read.kind === "absent"
          ? null
          : read.kind === "invalid"
            ? { invalid: read.error }
            : { name: read.name, height: read.height, info: read.info };
      const cmp =
        actual !== null && "name" in actual && want !== null && want.info === undefined
          ? { name: actual.name, height: actual.height }
          : actual;
      if (!same(planWanted(want), cmp)) fail(`upgradeInfo.${node}`, planWanted(want), actual);
    }
  }
  if (e.nodes !== undefined) {
    for (const [node, want] of e.nodes) {
      const st = sim.nodeStatus(node);
      if (want.binary !== undefined && st?.binary !== want.binary)
        fail(`nodes.${node}.binary`, want.binary, st?.binary);
      if (want.status !== undefined && st?.status !== want.status)
        fail(`nodes.${node}.status`, want.status, st?.status);
    }
  }
  if (e.stores !== undefined) {
    const wanted = [...e.stores].sort();
    const actual = [...(committed?.stores ?? [])].sort();
    if (!same(wanted, actual)) fail("stores", wanted, actual);
  }
}

/** balances, supply. */
function checkBank({ e, sim, fail }: CheckContext): void {
  if (e.balances === undefined && e.supply === undefined) return;
  const names = [...(e.balances?.keys() ?? [])];
  const bank = committedBank(
    sim,
    names.map((n) => addressOfName(n, sim.cfg.bech32Prefix)),
  );
  for (const name of names) {
    const wanted = coinsText(present(e.balances?.get(name), "a listed name"));
    const actual = coinsText(bank?.balances.get(addressOfName(name, sim.cfg.bech32Prefix)) ?? []);
    if (wanted !== actual) fail(`balances.${name}`, wanted, actual);
  }
  if (e.supply !== undefined) {
    const wanted = coinsText(e.supply);
    const actual = coinsText(bank?.supply ?? []);
    if (wanted !== actual) fail("supply", wanted, actual);
  }
}

/** events, noEvents, logs, noLogs. */
function checkEmitted({ e, sim, fail }: CheckContext): void {
  /** An ordered expectation's first unmatched entry, as `<key>[i]: expected {…}, got "no match after height h"`. */
  const failUnmatched = <W>(key: string, missing: Unmatched<W> | undefined, shown: (w: W) => unknown) => {
    if (missing !== undefined)
      fail(
        `${key}[${missing.index}]`,
        shown(missing.wanted),
        `no match${missing.after === 0 ? "" : ` after height ${missing.after}`}`,
      );
  };
  if (e.events !== undefined)
    failUnmatched(
      "events",
      firstUnmatched(e.events, emittedEvents(sim.blockEvents), (w, x) => eventMatches(w, x.height, x.event)),
      eventOut,
    );
  if (e.noEvents !== undefined) {
    const emitted = emittedEvents(sim.blockEvents);
    for (const [index, w] of e.noEvents.entries()) {
      const found = emitted.find(({ height, event }) => eventMatches(w, height, event));
      if (found !== undefined)
        fail(`noEvents[${index}]`, "none", {
          height: found.height,
          type: found.event.type,
          attributes: Object.fromEntries(found.event.attributes.map((a) => [a.key, a.value])),
        });
    }
  }
  if (e.logs !== undefined) failUnmatched("logs", firstUnmatched(e.logs, writtenLogs(sim), logMatches), logOut);
  if (e.noLogs !== undefined) {
    const written = writtenLogs(sim);
    for (const [index, w] of e.noLogs.entries()) {
      const found = written.find((l) => logMatches(w, l));
      if (found !== undefined) fail(`noLogs[${index}]`, "none", writtenOut(found));
    }
  }
}

/** steps: each labelled step's result. */
function checkSteps({ e, sim, fail }: CheckContext): void {
  if (e.steps === undefined) return;
  const results = sim.stepResults();
  for (const [label, want] of e.steps) {
    const r = results.find((x) => x.label === label);
    const actual = r === undefined ? "not run" : r.error === null ? { ok: r.ok } : { ok: r.ok, error: r.error };
    const cmp = r === undefined ? "not run" : want.error === undefined ? { ok: r.ok } : actual;
    const wanted = want.error === undefined ? { ok: want.ok } : { ok: want.ok, error: want.error };
    if (!same(wanted, cmp)) fail(`steps.${label}`, wanted, actual);
  }
}

const eventOut = (e: EventExpectation) => ({
  ...(e.height === undefined ? {} : { height: Number(e.height) }),
  type: e.type,
  ...(e.attributes === undefined ? {} : { attributes: Object.fromEntries(e.attributes) }),
});

/** The committed blocks' events in emission order, each with its block's height. */
const emittedEvents = (blocks: ReadonlyMap<number, readonly Event[]>) =>
  [...blocks].flatMap(([height, events]) => events.map((event) => ({ height, event })));

/** Whether `event`, emitted at `height`, has the entry's type, height (when given) and listed attribute values. */
const eventMatches = (w: EventExpectation, height: number, event: Event): boolean =>
  event.type === w.type &&
  (w.height === undefined || height === Number(w.height)) &&
  [...(w.attributes ?? [])].every(([k, v]) => event.attributes.some((a) => a.key === k && a.value === v));

/** An ordered expectation's first entry without a match, and the height of its predecessor's match (0: none). */
interface Unmatched<W> {
  readonly index: number;
  readonly wanted: W;
  readonly after: number;
}

/**
 * Matches the expected entries, in order, against what the chain emitted or wrote (a subsequence: others may come
 * between). Undefined when all match; otherwise the first that has no match after its predecessor's.
 */
function firstUnmatched<W, T extends { readonly height: number }>(
  wanted: readonly W[],
  items: readonly T[],
  matches: (w: W, item: T) => boolean,
): Unmatched<W> | undefined {
  let at = 0;
  let after = 0;
  for (const [index, w] of wanted.entries()) {
    const found = items.findIndex((item, i) => i >= at && matches(w, item));
    if (found < 0) return { index, wanted: w, after };
    at = found + 1;
    after = items[found]?.height ?? after;
  }
  return undefined;
}

const logOut = (l: LogExpectation) => ({
  ...(l.height === undefined ? {} : { height: Number(l.height) }),
  ...(l.node === undefined ? {} : { node: l.node }),
  level: l.level,
  ...(l.module === undefined ? {} : { module: l.module }),
  message: l.message,
});

/** A log line as the engine kept it: its height, and the halted node whose final line it is (none: a committed block's). */
interface WrittenLog {
  readonly height: number;
  readonly node: string | undefined;
  readonly line: LogLine;
}

const writtenOut = (w: WrittenLog) => ({
  height: w.height,
  ...(w.node === undefined ? {} : { node: w.node }),
  level: w.line.level,
  module: w.line.module,
  message: w.line.message,
});

/**
 * Every kept log line in one order: by height; at one height, the final lines of the nodes that halted there (in the
 * order the halts happened), then the committed block's lines (in emission order: PreBlocker, successful
 * transactions, EndBlocker). A node halts at a height before the chain commits it, so the halt's lines come first.
 */
function writtenLogs(sim: {
  readonly blockLogs: ReadonlyMap<number, readonly LogLine[]>;
  readonly halts: readonly { readonly node: string; readonly height: number; readonly logs: readonly LogLine[] }[];
}): WrittenLog[] {
  const byHeight = new Map<number, WrittenLog[]>();
  const add = (height: number, node: string | undefined, lines: readonly LogLine[]) => {
    let at = byHeight.get(height);
    if (at === undefined) byHeight.set(height, (at = []));
    for (const line of lines) at.push({ height, node, line });
  };
  for (const h of sim.halts) add(h.height, h.node, h.logs);
  for (const [height, lines] of sim.blockLogs) add(height, undefined, lines);
  return [...byHeight].sort(([a], [b]) => a - b).flatMap(([, lines]) => lines);
}

/**
 * Whether a kept line has the entry's level and exact message, and its module, height and node when given (an entry
 * with a node matches only that node's final lines before a halt).
 */
const logMatches = (w: LogExpectation, l: WrittenLog): boolean =>
  l.line.level === w.level &&
  l.line.message === w.message &&
  (w.module === undefined || l.line.module === w.module) &&
  (w.height === undefined || l.height === Number(w.height)) &&
  (w.node === undefined || l.node === w.node);
