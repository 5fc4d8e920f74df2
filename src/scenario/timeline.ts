import { formatRfc3339 } from "../core/go/time.js";

type Ev = { t: string } & Record<string, unknown>;

const str = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/**
 * A readable timeline rendered from the canonical trace: heights and times, proposals entering voting and their
 * outcome, the plan scheduled or cleared, halts with their messages, swaps and restarts, the upgrade applied.
 * `labels` maps proposal ids to their labels in the file. Pure.
 */
export function renderTimeline(traceLines: readonly string[], labels: ReadonlyMap<string, string>): string[] {
  const out: string[] = [];
  const row = (height: string | number, time: string, text: string) =>
    out.push(`${String(height).padStart(8)}  ${time.padEnd(24)}  ${text}`);
  const proposal = (id: unknown) => {
    const l = labels.get(String(id));
    return l === undefined ? `proposal ${str(id)}` : `proposal ${str(id)} "${l}"`;
  };
  let height = 0;
  let genesisStarts = true;
  for (const line of traceLines) {
    const e = JSON.parse(line) as Ev;
    const time = typeof e.time === "string" ? e.time : "";
    switch (e.t) {
      case "genesis": {
        const nodes = (e.nodes as { name: string; power: number; binary: string }[])
          .map((n) => `${n.name}${n.power > 0 ? ` (${n.power})` : " (full node)"} on ${n.binary}`)
          .join(", ");
        row(0, time, `genesis ${str(e.chainId)}, seed ${str(e.seed)}: ${nodes}`);
        break;
      }
      case "start":
        if (genesisStarts) break;
        row(
          height,
          time,
          `${str(e.node)} started with binary ${str(e.binary)}${(e.skip as number[]).length > 0 ? `, skip heights ${(e.skip as number[]).join(",")}` : ""}`,
        );
        break;
      case "stop":
        row(height, time, `${str(e.node)} stopped`);
        break;
      case "blocks": {
        genesisStarts = false;
        const from = e.from as number;
        const to = e.to as number;
        height = to;
        const n = to - from + 1;
        row(
          from === to ? String(from) : `${from}-${to}`,
          formatRfc3339(e.timeToMs as number),
          n === 1 ? "1 block" : `${n} blocks (no transactions) until ${formatRfc3339(e.timeToMs as number)}`,
        );
        break;
      }
      case "step":
        genesisStarts = false;
        row(height, time, `step ${str(e.index)}${e.label === null ? "" : ` "${str(e.label)}"`}: ${str(e.action)}`);
        break;
      case "block": {
        genesisStarts = false;
        height = e.height as number;
        const txs = e.txs as { tx: { kind: string }; result: { ok: boolean; error?: string } }[];
        const parts: string[] = [];
        if (txs.length > 0)
          parts.push(`${txs.length} tx${txs.length === 1 ? "" : "s"} (${txs.filter((t) => t.result.ok).length} ok)`);
        if (e.applied !== undefined) parts.push(`UPGRADE "${str(e.applied)}" APPLIED (handler ran)`);
        if (e.skipped !== undefined) parts.push(`upgrade "${str(e.skipped)}" skipped at a skip height`);
        row(
          height,
          time,
          `block committed by ${(e.committers as string[]).join(",")}${parts.length > 0 ? `: ${parts.join("; ")}` : ""}`,
        );
        for (const t of txs) if (!t.result.ok) row("", "", `  ${t.tx.kind} failed: ${t.result.error ?? ""}`);
        for (const g of e.gov as { type: string; id: string; reason?: string }[]) {
          const what: Record<string, string> = {
            submitted: "submitted",
            "voting-started": "entered voting",
            passed: "PASSED",
            rejected: "rejected",
            failed: `FAILED: ${g.reason ?? ""}`,
            "expedited-fallback": "expedited vote failed; converted to a regular proposal",
            dropped: "dropped (minimum deposit not reached)",
            cancelled: "cancelled by its proposer",
          };
          row("", "", `  ${proposal(g.id)} ${what[g.type] ?? g.type}`);
        }
        break;
      }
      case "plan": {
        const p = e.plan as { name: string; height: number; info: string } | null;
        row(
          "",
          "",
          p === null
            ? "  plan cleared: no upgrade scheduled"
            : `  plan scheduled: "${p.name}" at height ${p.height}${p.info === "" ? "" : ` (info ${JSON.stringify(p.info)})`}`,
        );
        break;
      }
      case "halt":
        row(e.height as number, time, `HALT ${str(e.node)} (${str(e.kind)}): ${str(e.message)}`);
        break;
      case "stall":
        row(e.height as number, time, `chain stalled: no 2/3 of the voting power can commit block ${str(e.height)}`);
        break;
      case "sidecar":
        row(
          height,
          time,
          e.action === "swap"
            ? `sidecar of ${str(e.node)}: swapping to binary ${str(e.binary)} for plan "${str(e.plan)}"`
            : `sidecar of ${str(e.node)}: no action (${str(e.reason)})`,
        );
        break;
      default:
        row(height, time, line);
    }
  }
  return out;
}
