/**
 * Validated expectations (an `expect` block, or an `expect` step) → their resolved form (model.ts `Expectations`):
 * heights branded, int64 plan heights as bigint, coins parsed, maps in the file's order. Split from resolve.ts.
 *
 * Contract: as resolve.ts, the input has passed validation; a value that does not parse here is a bug
 * (an assertion), never a user error.
 */
import { assert } from "../core/assert.js";
import { height } from "../core/brand.js";
import { type Coins, parseCoins } from "./coins.js";
import type { EventExpectation, Expectations, LogExpectation, PlanExpectation } from "./model.js";
import type { ExpectationsDocument } from "./schema.js";

const int64 = (v: number | string): bigint => BigInt(v);

function coins(text: string): Coins {
  const r = parseCoins(text);
  assert(r.ok, `scenario coins passed validation but do not parse: ${r.ok ? "" : r.error}`);
  return r.value;
}

const mapOf = <V, W>(r: Readonly<Record<string, V>>, f: (v: V) => W): ReadonlyMap<string, W> =>
  new Map(Object.entries(r).map(([k, v]) => [k, f(v)]));

type PlanExpectationDocument = { name: string; height: number | string; info?: string | undefined };

const planExpectation = (p: PlanExpectationDocument): PlanExpectation => ({
  name: p.name,
  height: int64(p.height),
  ...(p.info === undefined ? {} : { info: p.info }),
});

type EventExpectationDocument = NonNullable<ExpectationsDocument["events"]>[number];

const eventExpectation = (ev: EventExpectationDocument): EventExpectation => ({
  type: ev.type,
  ...(ev.height === undefined ? {} : { height: height(ev.height) }),
  ...(ev.attributes === undefined ? {} : { attributes: mapOf(ev.attributes, (v) => v) }),
});

type LogExpectationDocument = NonNullable<ExpectationsDocument["logs"]>[number];

const logExpectation = (l: LogExpectationDocument): LogExpectation => ({
  ...(l.height === undefined ? {} : { height: height(l.height) }),
  ...(l.node === undefined ? {} : { node: l.node }),
  level: l.level,
  ...(l.module === undefined ? {} : { module: l.module }),
  message: l.message,
});

export function resolveExpectations(e: ExpectationsDocument): Expectations {
  const out: { -readonly [K in keyof Expectations]: Expectations[K] } = {};
  if (e.height !== undefined) out.height = height(e.height);
  if (e.halted !== undefined) {
    out.halted =
      e.halted === false
        ? false
        : { height: height(e.halted.height), ...(e.halted.nodes === undefined ? {} : { nodes: e.halted.nodes }) };
  }
  if (e.plan !== undefined) out.plan = e.plan === null ? null : planExpectation(e.plan);
  if (e.applied !== undefined) out.applied = mapOf(e.applied, height);
  if (e.moduleVersions !== undefined) out.moduleVersions = mapOf(e.moduleVersions, (v) => v);
  if (e.protocolVersion !== undefined) out.protocolVersion = e.protocolVersion;
  if (e.proposals !== undefined)
    out.proposals = mapOf(e.proposals, (v) =>
      typeof v === "string"
        ? { status: v }
        : { status: v.status, ...(v.failedReason === undefined ? {} : { failedReason: v.failedReason }) },
    );
  if (e.halts !== undefined) {
    out.halts = e.halts.map((h) => ({
      ...(h.node === undefined ? {} : { node: h.node }),
      ...(h.height === undefined ? {} : { height: height(h.height) }),
      ...(h.kind === undefined ? {} : { kind: h.kind }),
      ...(h.message === undefined ? {} : { message: h.message }),
    }));
  }
  if (e.handlerRuns !== undefined) out.handlerRuns = mapOf(e.handlerRuns, (v) => v);
  if (e.upgradeInfo !== undefined)
    out.upgradeInfo = mapOf(e.upgradeInfo, (v) => (v === null ? null : planExpectation(v)));
  if (e.nodes !== undefined)
    out.nodes = mapOf(e.nodes, (v) => ({
      ...(v.binary === undefined ? {} : { binary: v.binary }),
      ...(v.status === undefined ? {} : { status: v.status }),
    }));
  if (e.stores !== undefined) out.stores = e.stores;
  if (e.steps !== undefined) {
    out.steps = mapOf(e.steps, (v) => ({ ok: v.ok, ...(v.error === undefined ? {} : { error: v.error }) }));
  }
  if (e.balances !== undefined) out.balances = mapOf(e.balances, coins);
  if (e.supply !== undefined) out.supply = coins(e.supply);
  if (e.events !== undefined) out.events = e.events.map(eventExpectation);
  if (e.noEvents !== undefined) out.noEvents = e.noEvents.map(eventExpectation);
  if (e.logs !== undefined) out.logs = e.logs.map(logExpectation);
  if (e.noLogs !== undefined) out.noLogs = e.noLogs.map(logExpectation);
  return out;
}
