import { create, type Message } from "@bufbuild/protobuf";
import { base64 } from "@scure/base";
import type { Prediction } from "../../models/oracle.js";
import type { QueryBackend } from "../api/backend.js";
import { runQuery } from "../api/height.js";
import { nodeBackend } from "../api/node-backend.js";
import { compareUtf8 } from "../core/bytes.js";
import {
  Query,
  QueryAppliedPlanRequestSchema,
  type QueryAppliedPlanResponse,
  QueryCurrentPlanRequestSchema,
  type QueryCurrentPlanResponse,
  QueryModuleVersionsRequestSchema,
  type QueryModuleVersionsResponse,
  QueryUpgradedConsensusStateRequestSchema,
  type QueryUpgradedConsensusStateResponse,
} from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { jsonEqual } from "./same-json.js";
import type { SessionView } from "./session-view.js";

/**
 * What a node's x/upgrade Query service (`chain.upgrade.v1beta1.Query`, reference x/upgrade/keeper/grpc_query.go)
 * serves, against what the model predicts of the chain's committed state. The queries go through the node's own
 * query pipeline, as `chainsim serve` and a scenario's `query` step answer them: the node backend (its committed
 * store at the latest height), the gRPC path's height rules and context, the bound query server, and its status
 * mapping (an SDK error is code 2 Unknown with the `codespace ... code ...` message).
 *
 * The queries, over the model's prediction:
 * - `ModuleVersions` without a name: every module of the model's version map, in byte order of the names;
 * - `ModuleVersions` with each module name the model knows: exactly that module and its version;
 * - `ModuleVersions` with names no module has, each next to a real one (a known name without its last character,
 *   and one with a character added: the match is exact, never a prefix): the reference's error;
 * - `CurrentPlan`: the committed plan (name, height, info), or no plan;
 * - `AppliedPlan` with each plan name of the world: the height at which it was done, 0 when never;
 * - the deprecated `UpgradedConsensusState` at the chain height and at the plan's height: always the empty response,
 *   because only IBC's client keeper stores an upgraded consensus state and the simulated chain has no IBC.
 */

/** One query of the upgrade Query service, as data. */
export type UpgradeQuery =
  | { readonly kind: "module-versions"; readonly moduleName: string }
  | { readonly kind: "current-plan" }
  | { readonly kind: "applied-plan"; readonly name: string }
  | { readonly kind: "upgraded-consensus-state"; readonly lastHeight: number };

/**
 * An answer as plain data: the response's fields as the REST gateway names them (integers as decimal strings), or
 * the status of a failed query.
 */
export type UpgradeAnswer = Readonly<Record<string, unknown>>;

/** A query and the answer the model predicts for it. */
export interface ExpectedAnswer {
  readonly query: UpgradeQuery;
  readonly answer: UpgradeAnswer;
}

/** How a query reads in a difference: the gRPC method and its request fields. */
export function describeQuery(q: UpgradeQuery): string {
  switch (q.kind) {
    case "module-versions":
      return q.moduleName === "" ? "ModuleVersions()" : `ModuleVersions(module_name: ${JSON.stringify(q.moduleName)})`;
    case "current-plan":
      return "CurrentPlan()";
    case "applied-plan":
      return `AppliedPlan(name: ${JSON.stringify(q.name)})`;
    case "upgraded-consensus-state":
      return `UpgradedConsensusState(last_height: ${q.lastHeight})`;
  }
}

const byteOrder = (a: string, b: string): number => compareUtf8(a, b);

/** Names no module of `known` has: a known name without its last character, and with one added. */
function absentNames(known: readonly string[]): readonly string[] {
  const first = known[0] ?? "upgrade";
  return [first.slice(0, -1), `${first}~`].filter((n) => n !== "" && !known.includes(n));
}

/** The reference's error for a module version that is not stored (ErrNoModuleVersionFound, wrapped by the query). */
const moduleNotFound = (name: string): UpgradeAnswer => ({
  code: 2,
  message: `codespace upgrade code 2: module version not found: x/upgrade: QueryModuleVersions module ${name} not found`,
});

/**
 * The queries and the answers the reference serves for the committed state the model predicts, with `planNames`
 * the plan names whose applied height is asked and `height` the chain's committed height.
 */
export function expectedAnswers(m: Prediction, planNames: readonly string[], height: number): ExpectedAnswer[] {
  const modules = Object.entries(m.moduleVersions).sort(([a], [b]) => byteOrder(a, b));
  const entry = ([name, version]: readonly [string, number]) => ({ name, version: String(version) });
  const out: ExpectedAnswer[] = [
    { query: { kind: "module-versions", moduleName: "" }, answer: { module_versions: modules.map(entry) } },
  ];
  for (const mv of modules)
    out.push({ query: { kind: "module-versions", moduleName: mv[0] }, answer: { module_versions: [entry(mv)] } });
  for (const name of absentNames(modules.map(([n]) => n)))
    out.push({ query: { kind: "module-versions", moduleName: name }, answer: moduleNotFound(name) });
  const p = m.plan;
  out.push({
    query: { kind: "current-plan" },
    answer: { plan: p === null ? null : { name: p.name, height: String(p.height), info: p.info } },
  });
  for (const name of planNames)
    out.push({ query: { kind: "applied-plan", name }, answer: { height: String(m.applied[name] ?? 0) } });
  const consensusHeights = new Set([height, ...(p === null ? [] : [Number(p.height)])]);
  for (const lastHeight of consensusHeights)
    out.push({ query: { kind: "upgraded-consensus-state", lastHeight }, answer: { upgraded_consensus_state: null } });
  return out;
}

/** Runs `q` on `backend` as the gRPC path does (latest height) and returns the answer as data. */
export function serveUpgradeQuery(backend: QueryBackend, q: UpgradeQuery): UpgradeAnswer {
  const bound = backend.services.find((b) => b.service.typeName === Query.typeName);
  const handler = bound?.handlers.get(METHOD[q.kind]);
  if (handler === undefined) return { unserved: `${Query.typeName}/${METHOD[q.kind]}` };
  const r = runQuery(backend, handler, request(q), []);
  if (!r.ok) return { code: r.status.code, message: r.status.message };
  return answerOf(q, r.response);
}

const METHOD = {
  "module-versions": "ModuleVersions",
  "current-plan": "CurrentPlan",
  "applied-plan": "AppliedPlan",
  "upgraded-consensus-state": "UpgradedConsensusState",
} as const satisfies Record<UpgradeQuery["kind"], string>;

function request(q: UpgradeQuery): Message {
  switch (q.kind) {
    case "module-versions":
      return create(QueryModuleVersionsRequestSchema, { moduleName: q.moduleName });
    case "current-plan":
      return create(QueryCurrentPlanRequestSchema);
    case "applied-plan":
      return create(QueryAppliedPlanRequestSchema, { name: q.name });
    case "upgraded-consensus-state":
      return create(QueryUpgradedConsensusStateRequestSchema, { lastHeight: BigInt(q.lastHeight) });
  }
}

function answerOf(q: UpgradeQuery, response: Message): UpgradeAnswer {
  switch (q.kind) {
    case "module-versions":
      return {
        module_versions: (response as QueryModuleVersionsResponse).moduleVersions.map((mv) => ({
          name: mv.name,
          version: String(mv.version),
        })),
      };
    case "current-plan": {
      const p = (response as QueryCurrentPlanResponse).plan;
      return { plan: p === undefined ? null : { name: p.name, height: String(p.height), info: p.info } };
    }
    case "applied-plan":
      return { height: String((response as QueryAppliedPlanResponse).height) };
    case "upgraded-consensus-state": {
      const bz = (response as QueryUpgradedConsensusStateResponse).upgradedConsensusState;
      return { upgraded_consensus_state: bz.length === 0 ? null : base64.encode(bz) };
    }
  }
}

/** The query backend of node `node` of session `s` (what `chainsim serve` answers for it). */
export type BackendOf = (s: SessionView, node: string) => QueryBackend | undefined;

const servedBackend: BackendOf = (s, node) => {
  const b = nodeBackend(s.sim, node);
  return b.ok ? b.value : undefined;
};

/**
 * The last answers served in a session (part of model-agreement's per-run state): a state's answers depend only on
 * its content, which the app hash pins.
 */
export interface ServedAnswers {
  key: string;
  answers: readonly UpgradeAnswer[];
}

/** Nothing served yet: the next diff asks the node. */
export const noneServed = (): ServedAnswers => ({ key: "", answers: [] });

const j = (v: unknown) => JSON.stringify(v);

/**
 * The differences between what the nodes holding the chain's committed state serve and what the model predicts
 * (`node <name> serves <query>: model <answer> chain <answer>`); empty when they agree. Nodes behind the chain, or
 * with another committed state, are not asked: the model predicts the chain's state only. Served once per app hash
 * and set of queries (by the first node in the world's order that holds it), so a command that commits nothing
 * new asks nothing (`memo` keeps the last answers between calls).
 */
export function upgradeQueryDiffs(
  s: SessionView,
  m: Prediction,
  memo: ServedAnswers,
  backendOf: BackendOf = servedBackend,
): string[] {
  const sim = s.sim;
  const c = sim.committed();
  if (c === undefined) return [];
  const node = sim.nodeNames().find((n) => sim.host.lastAppHash(sim.nodeState(n)!) === c.appHash);
  if (node === undefined) return [];
  const expected = expectedAnswers(m, planNamesOf(s, m), sim.height);
  const key = `${c.appHash}\n${node}\n${expected.map((e) => describeQuery(e.query)).join("\n")}`;
  if (memo.key !== key) {
    const backend = backendOf(s, node);
    memo.answers = expected.map((e) =>
      backend === undefined ? { unserved: node } : serveUpgradeQuery(backend, e.query),
    );
    memo.key = key;
  }
  const out: string[] = [];
  expected.forEach((e, i) => {
    const served = memo.answers[i];
    if (!jsonEqual(e.answer, served, j))
      out.push(`node ${node} serves ${describeQuery(e.query)}: model ${j(e.answer)} chain ${j(served)}`);
  });
  return out;
}

/** The plan names of the world (those a binary has a handler for), those done and the committed plan's, sorted. */
function planNamesOf(s: SessionView, m: Prediction): readonly string[] {
  const names = new Set<string>(Object.keys(m.applied));
  for (const b of Object.values(s.doc.binaries)) for (const name of Object.keys(b.upgrades ?? {})) names.add(name);
  if (m.plan !== null) names.add(m.plan.name);
  return [...names].sort(byteOrder);
}
