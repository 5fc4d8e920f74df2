/**
 * Reading a saved trace back: canonical JSON lines (as `chainsim run --trace` and `scenarios.json` hold them) in,
 * typed trace events or one error line out. The inverse of `renderTraceEvent`: every line this accepts renders
 * back to the same bytes (tested over every scenario's trace). Nothing throws.
 */

import { z } from "zod";
import { type GovBlockEvent, VOTE_OPTIONS } from "../app/types.js";
import type { BlockTimeModel } from "../chain/block-time.js";
import { OPERATOR_PHASES } from "../chain/operator-plan.js";
import type { TraceEvent } from "../chain/trace-events.js";
import { assert } from "../core/assert.js";
import type { DurationMs } from "../core/brand.js";
import { fromHex } from "../core/bytes.js";
import { err, ok, type Result } from "../core/errors.js";
import { parseRfc3339 } from "../core/go/time.js";
import { HALT_KINDS } from "../upgrade/halt.js";

const int = z.number().int();
const bigintText = z
  .string()
  .regex(/^-?\d+$/)
  .transform((s) => BigInt(s));
const time = z.string().transform((s, ctx) => {
  const r = parseRfc3339(s);
  if (r.ok) return r.value as number;
  ctx.addIssue({ code: "custom", message: r.error });
  return z.NEVER;
});
const ms = z
  .number()
  .int()
  .transform((n) => n as DurationMs);
const blockTime = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("fixed"), intervalMs: ms }),
  z.strictObject({ kind: z.literal("uniform"), minMs: ms, maxMs: ms }),
  z.strictObject({ kind: z.literal("normal"), meanMs: ms, stddevMs: ms, minMs: ms, maxMs: z.optional(ms) }),
  z.strictObject({
    kind: z.literal("drift"),
    meanMs: z.number(),
    anchor: z.strictObject({ height: int, timeMs: z.number(), rateMs: z.number() }),
    segmentBlocks: int,
    persistence: z.number(),
    wander: z.number(),
    daily: z.strictObject({ amplitude: z.number(), peakMs: z.number() }),
    shifts: z.strictObject({ rate: z.number(), size: z.number() }),
    outages: z.strictObject({ rate: z.number(), meanMs: z.number() }),
    jitter: z.number(),
  }),
]) satisfies z.ZodType<BlockTimeModel, unknown>;
const coins = z.array(z.strictObject({ denom: z.string(), amount: bigintText }));
const upgradeMsg = z.discriminatedUnion("type", [
  z
    .strictObject({
      type: z.literal("softwareUpgrade"),
      authority: z.string(),
      plan: z
        .strictObject({
          name: z.string(),
          height: bigintText,
          info: z.string(),
          // The deprecated fields, written only when a message carries them (app/types.ts planWire).
          time: z.optional(z.strictObject({ seconds: bigintText, nanos: z.number() })),
          upgradedClientState: z.optional(
            z.strictObject({ typeUrl: z.string(), value: z.string().transform((h) => fromHex(h)) }),
          ),
        })
        .transform(({ time, upgradedClientState: ucs, ...p }) => ({
          ...p,
          ...(time === undefined ? {} : { time }),
          ...(ucs === undefined ? {} : { upgradedClientState: ucs }),
        })),
    })
    .transform(({ type, ...m }) => ({ kind: type, ...m })),
  z
    .strictObject({ type: z.literal("cancelUpgrade"), authority: z.string() })
    .transform(({ type, ...m }) => ({ kind: type, ...m })),
]);
const simTx = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("submitProposal"),
    proposer: z.string(),
    messages: z.array(upgradeMsg),
    initialDeposit: coins,
    title: z.string(),
    summary: z.string(),
    metadata: z.string(),
    expedited: z.boolean(),
  }),
  z.strictObject({ kind: z.literal("deposit"), proposalId: bigintText, depositor: z.string(), amount: coins }),
  z.strictObject({
    kind: z.literal("vote"),
    proposalId: bigintText,
    voter: z.string(),
    option: z.enum(VOTE_OPTIONS),
  }),
  z.strictObject({ kind: z.literal("cancelProposal"), proposalId: bigintText, proposer: z.string() }),
  z.strictObject({ kind: z.literal("upgrade"), signer: z.string(), messages: z.array(upgradeMsg) }),
]);
const txResult = z.strictObject({
  ok: z.boolean(),
  error: z.optional(z.string()),
  proposalId: z.optional(bigintText),
});
const id = { id: bigintText };
const govEvent = <K extends GovBlockEvent["kind"]>(kind: K) =>
  z.strictObject({ type: z.literal(kind), ...id }).transform(({ type, ...g }) => ({ kind: type, ...g }));
const gov = z.discriminatedUnion("type", [
  govEvent("submitted"),
  govEvent("voting-started"),
  govEvent("passed"),
  govEvent("rejected"),
  z
    .strictObject({ type: z.literal("failed"), ...id, reason: z.string() })
    .transform(({ type, ...g }) => ({ kind: type, ...g })),
  govEvent("expedited-fallback"),
  govEvent("dropped"),
  govEvent("cancelled"),
]);
const skip = z.array(int);
const plan = z.strictObject({ name: z.string(), height: int, info: z.string() });

/** The wire form of every event, mapped to the typed event. */
const wire = z.discriminatedUnion("t", [
  z
    .strictObject({
      t: z.literal("genesis"),
      chainId: z.string(),
      seed: int,
      time,
      appHash: z.string(),
      blockTime,
      nodes: z.array(z.strictObject({ name: z.string(), power: int, binary: z.string(), skip })),
      initialHeight: z.optional(int),
    })
    .transform(({ t, time, ...e }): TraceEvent => ({ kind: t, timeMs: time, ...e })),
  z
    .strictObject({ t: z.literal("start"), node: z.string(), binary: z.string(), skip, time })
    .transform(({ t, time, ...e }): TraceEvent => ({ kind: t, timeMs: time, ...e })),
  z
    .strictObject({ t: z.literal("stop"), node: z.string(), time })
    .transform(({ t, time, ...e }): TraceEvent => ({ kind: t, timeMs: time, ...e })),
  z
    .strictObject({
      t: z.literal("step"),
      index: int,
      label: z.string().nullable(),
      action: z.string(),
      time,
      height: int,
    })
    .transform(({ t, time, ...e }): TraceEvent => ({ kind: t, timeMs: time, ...e })),
  z
    .strictObject({
      t: z.literal("block"),
      height: int,
      time,
      appHash: z.string(),
      txs: z.array(z.strictObject({ tx: simTx, result: txResult })),
      gov: z.array(gov),
      applied: z.optional(z.string()),
      skipped: z.optional(z.string()),
      committers: z.array(z.string()),
    })
    .transform(
      ({ t, time, applied, skipped, ...e }): TraceEvent => ({ kind: t, timeMs: time, applied, skipped, ...e }),
    ),
  z
    .strictObject({ t: z.literal("blocks"), from: int, to: int, timeFromMs: int, timeToMs: int, appHash: z.string() })
    .transform(({ t, ...e }): TraceEvent => ({ kind: t, ...e })),
  z
    .strictObject({ t: z.literal("stall"), height: int, time })
    .transform(({ t, time, ...e }): TraceEvent => ({ kind: t, timeMs: time, ...e })),
  z
    .strictObject({
      t: z.literal("halt"),
      node: z.string(),
      height: int,
      kind: z.enum(HALT_KINDS),
      message: z.string(),
      time,
    })
    .transform(({ t, time, kind, ...e }): TraceEvent => ({ kind: t, timeMs: time, haltKind: kind, ...e })),
  z
    .strictObject({ t: z.literal("plan"), height: int, plan: plan.nullable() })
    .transform(({ t, ...e }): TraceEvent => ({ kind: t, ...e })),
  z
    .strictObject({ t: z.literal("sidecar"), node: z.string(), action: z.literal("none"), reason: z.string() })
    .transform(({ t, ...e }): TraceEvent => ({ kind: t, ...e })),
  z
    .strictObject({
      t: z.literal("operator"),
      node: z.string(),
      phase: z.enum(OPERATOR_PHASES),
      detail: z.string(),
      time,
    })
    .transform(({ t, time, ...e }): TraceEvent => ({ kind: t, timeMs: time, ...e })),
]);
/** A sidecar swap shares `t` with the no-op; zod's discriminated union needs one schema per `t`, so it goes apart. */
const sidecarSwap = z
  .strictObject({
    t: z.literal("sidecar"),
    node: z.string(),
    action: z.literal("swap"),
    plan: z.string(),
    binary: z.string(),
    time,
  })
  .transform(({ t, time, ...e }): TraceEvent => ({ kind: t, timeMs: time, ...e }));
const schemaOf = (v: unknown) =>
  typeof v === "object" && v !== null && "t" in v && v.t === "sidecar" && "action" in v && v.action === "swap"
    ? sidecarSwap
    : wire;

/** Parses trace lines; the error names the line (1-based) and the field. */
export function readTraceLines(lines: readonly string[]): Result<TraceEvent[], string> {
  const out: TraceEvent[] = [];
  for (const [i, text] of lines.entries()) {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      return err(`trace line ${i + 1}: not JSON`);
    }
    const r = schemaOf(v).safeParse(v);
    if (!r.success) {
      const issue = r.error.issues[0];
      const at = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
      return err(`trace line ${i + 1}${at}: ${issue?.message ?? "not a trace event"}`);
    }
    out.push(r.data);
  }
  return ok(out);
}

const recordCache = new WeakMap<readonly string[], readonly TraceEvent[]>();

/**
 * The events of a saved trace that is known to be valid: one `chainsim all` just wrote, or one `parseScenariosFile`
 * accepted. An invalid line here is a bug, not a user's mistake.
 */
export function savedTraceEvents(lines: readonly string[]): readonly TraceEvent[] {
  let events = recordCache.get(lines);
  if (events === undefined) {
    const r = readTraceLines(lines);
    assert(r.ok, `a saved trace is valid (${r.ok ? "" : r.error})`);
    events = r.value;
    recordCache.set(lines, events);
  }
  return events;
}
