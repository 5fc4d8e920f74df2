import type { GovBlockEvent } from "../app/types.js";
import { foldTrace, isGenesisStart, type TraceEvent } from "../chain/trace-events.js";
import { formatRfc3339 } from "../core/go/time.js";

const GOV_TEXT: { readonly [K in GovBlockEvent["kind"]]: (g: Extract<GovBlockEvent, { kind: K }>) => string } = {
  submitted: () => "submitted",
  "voting-started": () => "entered voting",
  passed: () => "PASSED",
  rejected: () => "rejected",
  failed: (g) => `FAILED: ${g.reason}`,
  "expedited-fallback": () => "expedited vote failed; converted to a regular proposal",
  dropped: () => "dropped (minimum deposit not reached)",
  cancelled: () => "cancelled by its proposer",
};
const govText = (g: GovBlockEvent): string => (GOV_TEXT[g.kind] as (g: GovBlockEvent) => string)(g);

/**
 * A readable timeline rendered from the trace: heights and times, proposals entering voting and their outcome, the
 * plan scheduled or cleared, halts with their messages, swaps and restarts, the upgrade applied. `labels` maps
 * proposal ids to their labels in the file. Pure.
 */
export function renderTimeline(events: readonly TraceEvent[], labels: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const row = (height: string | number, timeMs: number | undefined, text: string) =>
    out.push(
      `${String(height).padStart(8)}  ${(timeMs === undefined ? "" : formatRfc3339(timeMs)).padEnd(24)}  ${text}`,
    );
  const proposal = (id: bigint) => {
    const l = labels.get(String(id));
    return l === undefined ? `proposal ${id}` : `proposal ${id} "${l}"`;
  };
  foldTrace(events, undefined, (_, e, before, { height }) => {
    switch (e.kind) {
      case "genesis": {
        const nodes = e.nodes
          .map((n) => `${n.name}${n.power > 0 ? ` (${n.power})` : " (full node)"} on ${n.binary}`)
          .join(", ");
        const from = e.initialHeight === undefined ? "" : ` from height ${e.initialHeight}`;
        row((e.initialHeight ?? 1) - 1, e.timeMs, `genesis ${e.chainId}${from}, seed ${e.seed}: ${nodes}`);
        break;
      }
      case "start":
        if (isGenesisStart(before, e)) break;
        row(
          height,
          e.timeMs,
          `${e.node} started with binary ${e.binary}${e.skip.length > 0 ? `, skip heights ${e.skip.join(",")}` : ""}`,
        );
        break;
      case "stop":
        row(height, e.timeMs, `${e.node} stopped`);
        break;
      case "blocks": {
        const n = e.to - e.from + 1;
        row(
          e.from === e.to ? String(e.from) : `${e.from}-${e.to}`,
          e.timeToMs,
          n === 1 ? "1 block" : `${n} blocks (no transactions) until ${formatRfc3339(e.timeToMs)}`,
        );
        break;
      }
      case "step":
        row(height, e.timeMs, `step ${e.index}${e.label === null ? "" : ` "${e.label}"`}: ${e.action}`);
        break;
      case "block": {
        const parts: string[] = [];
        if (e.txs.length > 0)
          parts.push(
            `${e.txs.length} tx${e.txs.length === 1 ? "" : "s"} (${e.txs.filter((t) => t.result.ok).length} ok)`,
          );
        if (e.applied !== undefined) parts.push(`UPGRADE "${e.applied}" APPLIED (handler ran)`);
        if (e.skipped !== undefined) parts.push(`upgrade "${e.skipped}" skipped at a skip height`);
        row(
          height,
          e.timeMs,
          `block committed by ${e.committers.join(",")}${parts.length > 0 ? `: ${parts.join("; ")}` : ""}`,
        );
        for (const t of e.txs) if (!t.result.ok) row("", undefined, `  ${t.tx.kind} failed: ${t.result.error ?? ""}`);
        for (const g of e.gov) row("", undefined, `  ${proposal(g.id)} ${govText(g)}`);
        break;
      }
      case "plan": {
        const p = e.plan;
        row(
          "",
          undefined,
          p === null
            ? "  plan cleared: no upgrade scheduled"
            : `  plan scheduled: "${p.name}" at height ${p.height}${p.info === "" ? "" : ` (info ${JSON.stringify(p.info)})`}`,
        );
        break;
      }
      case "halt":
        row(e.height, e.timeMs, `HALT ${e.node} (${e.haltKind}): ${e.message}`);
        break;
      case "stall":
        row(e.height, e.timeMs, `chain stalled: no 2/3 of the voting power can commit block ${e.height}`);
        break;
      case "sidecar":
        if (e.action === "swap")
          row(height, e.timeMs, `sidecar of ${e.node}: swapping to binary ${e.binary} for plan "${e.plan}"`);
        else row(height, undefined, `sidecar of ${e.node}: no action (${e.reason})`);
        break;
      case "operator":
        row(height, e.timeMs, `operator of ${e.node}: ${e.phase}: ${e.detail}`);
        break;
    }
    return undefined;
  });
  return out;
}
