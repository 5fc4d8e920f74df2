import { predict } from "../../models/oracle.js";
import { jsonEqual } from "./same-json.js";
import type { SessionView } from "./session-view.js";
import { type BackendOf, noneServed, type ServedAnswers, upgradeQueryDiffs } from "./upgrade-queries.js";

type Result = { readonly ok: boolean; readonly error: string | null };

const j = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x));

/**
 * Compares the oracle's prediction with the real chain: height, stall, plan, applied heights, protocol version,
 * the module version map of the committed state, each upgrade message execution's success and exact error (an
 * account's own upgrade transaction included: the Msg server refuses it), handler runs, halts, and each node's
 * status, binary, height and upgrade-info.json; the x/upgrade log lines the model implies (each applied or skipped plan's
 * line in its block, each PreBlocker halt's error line); and where the chain's account of the harness's own actions deviated
 * from what the harness asked for (the intent gaps, intent.ts); and what the x/upgrade Query service of a node holding
 * the committed state serves (module versions, with and without a name, current and applied plans, the upgraded
 * consensus state: upgrade-queries.ts). Returns readable differences (`plan: model {...} chain {...}`); empty when
 * they agree. `backendOf` replaces the nodes' query backends (tests); `served` keeps the last query answers between
 * calls of one session (model-agreement's per-run state), so a command that commits nothing new asks nothing.
 */
export function conformance(s: SessionView, backendOf?: BackendOf, served: ServedAnswers = noneServed()): string[] {
  const m = predict(s.oracle.snapshot);
  const sim = s.sim;
  const c = sim.committed();
  const out: string[] = s.intents.gaps.map((g) => `intent: ${g}`);
  const cmp = (what: string, model: unknown, chain: unknown) => {
    if (!jsonEqual(model, chain, j)) out.push(`${what}: model ${j(model)} chain ${j(chain)}`);
  };
  cmp("height", m.height, sim.height);
  cmp("stalled", m.stalled, sim.stalled);
  cmp(
    "plan",
    m.plan === null ? null : { name: m.plan.name, height: Number(m.plan.height), info: m.plan.info },
    c?.plan ?? null,
  );
  cmp("applied", sortObj(m.applied), sortObj(Object.fromEntries(c?.applied ?? [])));
  cmp("protocolVersion", m.protocolVersion, c?.protocolVersion ?? 0);
  cmp("moduleVersions", sortObj(m.moduleVersions), sortObj(Object.fromEntries(c?.moduleVersions ?? [])));
  // Execution results are final once recorded: compared field by field, so the growing lists cost no serialising.
  const cmpResult = (what: string, model: Result, chain: Result) => {
    if (model.ok !== chain.ok || model.error !== chain.error) out.push(`${what}: model ${j(model)} chain ${j(chain)}`);
  };
  const kinds = (msgs: readonly { readonly kind: string }[]) => msgs.map((x) => x.kind).join(", ");
  for (const e of s.execs) {
    if (e.model === null) continue;
    const source = e.source === "proposal" ? "proposal" : "authority transaction";
    cmpResult(`${source} executed at ${e.height} (${kinds(e.msgs)})`, e.model, e);
  }
  for (const t of s.accountTxs)
    cmpResult(`upgrade transaction signed by ${t.signer} at ${t.height} (${kinds(t.msgs)})`, t.model, t);
  cmp("handlerRuns", sortObj(m.handlerRuns), sortObj(Object.fromEntries(sim.handlerRuns)));
  cmp(
    "halts",
    m.halts.map((h) => [h.node, h.height, h.kind, h.message]),
    sim.halts.map((h) => [h.node, h.height, h.kind, h.message]),
  );
  // The node's last log line before a PreBlocker halt: the halt's message, at level error (UPGRADE NEEDED, BINARY
  // UPDATED BEFORE TRIGGER); the other halts write none of their own.
  m.halts.forEach((h, i) => {
    if (h.kind !== "upgrade-needed" && h.kind !== "binary-too-early") return;
    const chain = sim.halts[i];
    if (chain === undefined || chain.node !== h.node || chain.height !== h.height) return; // "halts" says it
    cmp(
      `halt of ${h.node} at ${h.height}: last log line`,
      { level: "error", module: "x/upgrade", message: h.message },
      chain.logs.at(-1) ?? null,
    );
  });
  for (const u of s.upgradeLines) {
    const lines = sim.blockLogs.get(u.height) ?? [];
    if (!lines.some((l) => l.level === u.line.level && l.module === u.line.module && l.message === u.line.message))
      out.push(`log lines at ${u.height}: model ${j(u.line)} not among chain ${j(lines)}`);
  }
  for (const name of sim.nodeNames()) {
    const n = m.nodes[name];
    const st = sim.nodeStatus(name)!;
    const info = sim.host.readUpgradeInfo(sim.nodeState(name)!);
    cmp(`node ${name}`, n === undefined ? null : { status: n.status, binary: n.binary, height: n.height }, {
      status: st.status,
      binary: st.binary,
      height: st.height,
    });
    cmp(
      `node ${name} upgrade-info.json`,
      n?.upgradeInfo === null || n === undefined
        ? null
        : { name: n.upgradeInfo.name, height: n.upgradeInfo.height, info: n.upgradeInfo.info },
      info.kind === "ok"
        ? { name: info.name, height: info.height, info: info.info }
        : info.kind === "absent"
          ? null
          : info,
    );
  }
  out.push(...upgradeQueryDiffs(s, m, served, backendOf));
  return out;
}

function sortObj(o: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
