/**
 * Checks beyond the shape: every name a file refers to exists, labels are unique, reserved names are not used.
 *
 * Contract: runs on the raw parsed data, before or regardless of the shape validation, so that one pass reports
 * every error. Each read is defensive (a value of the wrong type is skipped: the shape validation reports it), and
 * a name set whose source is malformed is treated as unknown, so no reference is reported against it.
 */

import { SETTLE_MARGIN_BLOCKS } from "../chain/records.js";
import { formatDuration, parseDuration } from "../core/go/duration.js";
import { formatRfc3339, parseRfc3339, TIME_MAX_MS } from "../core/go/time.js";
import { COIN_MODULES } from "../gov/deps.js";
import { BASE_MODULES, SCENARIO_DEFAULTS } from "./defaults.js";
import { type DocPath, type PathIssue, quoteValue } from "./errors.js";
import { QUERY_ACTIONS_AVAILABLE, QUERY_UNAVAILABLE_MESSAGE } from "./features.js";
import { ANY_NODE, DEFAULT_NODE_KEY } from "./schema.js";
import { parseTimeSpec, resolveTimeSpec } from "./time.js";

type Rec = Readonly<Record<string, unknown>>;

const isRecord = (v: unknown): v is Rec => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const quoted = quoteValue;

class Names {
  /** undefined: the source is malformed, so membership is unknown. */
  constructor(readonly set: ReadonlySet<string> | undefined) {}
  has(name: string): boolean {
    return this.set === undefined || this.set.has(name);
  }
}

/** Reports a name (at `path`) that is not among the names it is checked against; a non-string is skipped. */
type Ref = (value: unknown, path: DocPath) => void;

/** The reference checks of one file: a check per kind of name, the actors (for balances), and the issue sink. */
interface Refs {
  readonly node: Ref;
  readonly binary: Ref;
  readonly account: Ref;
  readonly voter: Ref;
  readonly proposal: Ref;
  readonly step: Ref;
  readonly actors: Names;
  readonly add: (path: DocPath, message: string) => void;
}

/**
 * The names a file defines, as reference checks: validators and accounts (actors), binaries, nodes (validators and
 * the `nodes` keys but the default key), step labels and proposal ids (the file's and the `imported` ones). Reports
 * repeated validator names, step labels and proposal ids, and reserved validator names, as it collects them.
 */
function namesOf(data: Rec, imported: readonly string[], add: Refs["add"]): Refs & { steps: readonly unknown[] } {
  const chain = data.chain === undefined ? {} : data.chain;
  const validatorNames = isRecord(chain) ? collectValidators(chain.validators, add) : undefined;
  const accountNames = !isRecord(chain)
    ? undefined
    : chain.accounts === undefined
      ? new Set<string>()
      : keysOf(chain.accounts);
  const actors = new Names(union(validatorNames, accountNames));
  const binaries = new Names(data.binaries === undefined ? undefined : keysOf(data.binaries));
  const nodeKeys = data.nodes === undefined ? new Set<string>() : keysOf(data.nodes);
  const nodes = new Names(
    union(validatorNames, nodeKeys === undefined ? undefined : without(nodeKeys, DEFAULT_NODE_KEY)),
  );
  const steps: readonly unknown[] = Array.isArray(data.steps) ? data.steps : [];
  const stepsKnown = data.steps === undefined || Array.isArray(data.steps);
  const labels = uniqueValues(steps, (s) => (isRecord(s) ? s.label : undefined), ["label"], "step label", add);
  const ids = uniqueValues(
    steps,
    (s) => (isRecord(s) && isRecord(s.submitProposal) ? s.submitProposal.id : undefined),
    ["submitProposal", "id"],
    "proposal id",
    add,
  );
  const stepLabels = new Names(stepsKnown ? labels : undefined);
  const proposalIds = new Names(stepsKnown ? new Set([...ids, ...imported]) : undefined);
  const ref =
    (names: Names, what: string): Ref =>
    (value, path) => {
      const name = str(value);
      if (name !== undefined && !names.has(name)) add(path, `unknown ${what} ${quoted(name)}`);
    };
  return {
    node: ref(nodes, "node"),
    binary: ref(binaries, "binary"),
    account: ref(actors, "account"),
    voter: ref(actors, "validator"),
    proposal: ref(proposalIds, "proposal label"),
    step: ref(stepLabels, "step label"),
    actors,
    add,
    steps,
  };
}

/** The `nodes` map: no node is named `any` (reserved), and the binaries a node and its sidecar name exist. */
function checkNodes(nodes: unknown, r: Refs): void {
  if (!isRecord(nodes)) return;
  for (const [name, options] of Object.entries(nodes)) {
    if (name === ANY_NODE) r.add(["nodes", name], `node name ${quoted(ANY_NODE)} is reserved (on.halt: any)`);
    if (!isRecord(options)) continue;
    r.binary(options.binary, ["nodes", name, "binary"]);
    const sidecar = options.sidecar;
    if (isRecord(sidecar) && isRecord(sidecar.binaries)) {
      for (const [plan, binary] of Object.entries(sidecar.binaries)) {
        r.binary(binary, ["nodes", name, "sidecar", "binaries", plan]);
      }
    }
  }
}

/** An `expect` block (the file's or a step's, at `path`): the nodes, proposals, steps and accounts it names. */
function checkExpect(e: unknown, path: DocPath, r: Refs): void {
  if (!isRecord(e)) return;
  if (isRecord(e.halted) && Array.isArray(e.halted.nodes)) {
    e.halted.nodes.forEach((n, i) => {
      r.node(n, [...path, "halted", "nodes", i]);
    });
  }
  if (isRecord(e.proposals)) for (const k of Object.keys(e.proposals)) r.proposal(k, [...path, "proposals", k]);
  if (Array.isArray(e.halts)) {
    e.halts.forEach((h, i) => {
      if (isRecord(h)) r.node(h.node, [...path, "halts", i, "node"]);
    });
  }
  for (const key of ["logs", "noLogs"] as const) {
    const list = e[key];
    if (Array.isArray(list))
      list.forEach((l, i) => {
        if (isRecord(l)) r.node(l.node, [...path, key, i, "node"]);
      });
  }
  if (isRecord(e.upgradeInfo)) for (const k of Object.keys(e.upgradeInfo)) r.node(k, [...path, "upgradeInfo", k]);
  if (isRecord(e.nodes))
    for (const [k, v] of Object.entries(e.nodes)) {
      r.node(k, [...path, "nodes", k]);
      if (isRecord(v) && v.binary !== undefined) r.binary(v.binary, [...path, "nodes", k, "binary"]);
    }
  if (isRecord(e.steps)) for (const k of Object.keys(e.steps)) r.step(k, [...path, "steps", k]);
  if (isRecord(e.balances))
    for (const k of Object.keys(e.balances))
      if (!COIN_MODULES.includes(k) && !r.actors.has(k))
        r.add(
          [...path, "balances", k],
          `unknown account ${quoted(k)} (a validator, an account, or a module account: ${COIN_MODULES.join(", ")})`,
        );
}

/** Step `i`: the nodes, accounts, validators, proposals and binaries its action names, and its `expect`. */
function checkStep(step: unknown, i: number, r: Refs): void {
  if (!isRecord(step)) return;
  const at = (...rest: (string | number)[]): DocPath => ["steps", i, ...rest];
  if (isRecord(step.on) && step.on.halt !== ANY_NODE) r.node(step.on.halt, at("on", "halt"));
  const a = (key: string): Rec | undefined => (isRecord(step[key]) ? (step[key] as Rec) : undefined);
  const submit = a("submitProposal");
  if (submit) r.account(submit.proposer, at("submitProposal", "proposer"));
  /** An action on a proposal sent by an account (`deposit`, `cancelProposal`). */
  const proposalFrom = (key: string) => {
    const action = a(key);
    if (action === undefined) return;
    r.proposal(action.proposal, at(key, "proposal"));
    r.account(action.from, at(key, "from"));
  };
  proposalFrom("deposit");
  const vote = a("vote");
  if (vote) {
    r.proposal(vote.proposal, at("vote", "proposal"));
    if (isRecord(vote.votes)) for (const voter of Object.keys(vote.votes)) r.voter(voter, at("vote", "votes", voter));
  }
  proposalFrom("cancelProposal");
  const tx = a("tx");
  if (tx) r.account(tx.from, at("tx", "from"));
  const swap = a("swapBinary");
  if (swap) {
    r.node(swap.node, at("swapBinary", "node"));
    r.binary(swap.binary, at("swapBinary", "binary"));
  }
  for (const key of ["restart", "stop", "writeUpgradeInfo"]) {
    const action = a(key);
    if (action) r.node(action.node, at(key, "node"));
  }
  const query = a("query");
  if (query) {
    r.node(query.node, at("query", "node"));
    if (!QUERY_ACTIONS_AVAILABLE) r.add(at("query"), QUERY_UNAVAILABLE_MESSAGE);
  }
  checkExpect(step.expect, at("expect"), r);
}

/**
 * `imported`: proposal labels the chain holds at the start (a profile's, `proposal-<id>`).
 *
 * 1. Reserved keys anywhere in the file.
 * 2. The names the file defines (`namesOf`), reporting repeats.
 * 3. The references: the genesis binary, the binaries' own rules, the nodes, each step, the file's `expect`.
 * 4. Every time the run reaches is representable (`checkTimeRange`).
 */
export function checkReferences(data: unknown, imported: readonly string[] = []): PathIssue[] {
  const issues: PathIssue[] = [];
  const add = (path: DocPath, message: string) => issues.push({ path, message });
  reservedKeys(data, [], add);
  if (!isRecord(data)) return issues;
  const r = namesOf(data, imported, add);
  r.binary(data.genesisBinary, ["genesisBinary"]);
  checkBinaries(data.binaries, add);
  checkNodes(data.nodes, r);
  r.steps.forEach((step, i) => {
    checkStep(step, i, r);
  });
  checkExpect(data.expect, ["expect"], r);
  checkTimeRange(data, r.steps, add);
  return issues;
}

/** Milliseconds of a duration text; undefined when malformed (the shape pass reports it). */
const durationOf = (v: unknown): number | undefined => {
  const d = typeof v === "string" ? parseDuration(v) : undefined;
  return d?.ok === true ? d.value : undefined;
};

/** The longest interval a block-time model draws; undefined when malformed. A normal model without `max`: 10σ. */
function longestInterval(blockTime: unknown): number | undefined {
  if (!isRecord(blockTime)) return durationOf(blockTime);
  const max = durationOf(blockTime.max);
  if (max !== undefined) return max;
  const mean = durationOf(blockTime.mean);
  const stddev = durationOf(blockTime.stddev);
  return mean === undefined || stddev === undefined ? undefined : mean + 10 * stddev;
}

/**
 * Every time the run can reach stays inside the representable range (TIME_MAX_MS, year 9999): the genesis time,
 * each step's `at.time`, and the block clock up to the last step's height plus the settle margin at the longest
 * block interval. The error names the key to change and the height at which the clock would overflow.
 */
function checkTimeRange(data: Rec, steps: readonly unknown[], add: (p: DocPath, m: string) => void): void {
  const chain = isRecord(data.chain) ? data.chain : {};
  const last = formatRfc3339(TIME_MAX_MS);
  const g = parseRfc3339(typeof chain.genesisTime === "string" ? chain.genesisTime : SCENARIO_DEFAULTS.genesisTime);
  if (!g.ok) return;
  const genesisMs = g.value;
  if (genesisMs > TIME_MAX_MS) {
    add(["chain", "genesisTime"], `after ${last}, the latest time a chain can represent`);
    return;
  }
  let heightMax = 0;
  steps.forEach((step, i) => {
    if (!isRecord(step)) return;
    if (typeof step.at === "number" && Number.isSafeInteger(step.at)) heightMax = Math.max(heightMax, step.at);
    if (isRecord(step.at) && typeof step.at.time === "string") {
      const spec = parseTimeSpec(step.at.time);
      if (spec.ok && resolveTimeSpec(spec.value, genesisMs) > TIME_MAX_MS)
        add(["steps", i, "at", "time"], `after ${last}, the latest time a chain can represent`);
    }
  });
  const interval = longestInterval(chain.blockTime ?? SCENARIO_DEFAULTS.blockTime);
  if (interval === undefined || interval <= 0) return;
  const heightEnd = heightMax + SETTLE_MARGIN_BLOCKS + 1;
  const firstOver = Math.floor((TIME_MAX_MS - genesisMs) / interval) + 1;
  if (firstOver <= heightEnd) {
    add(
      ["chain", "blockTime"],
      `blocks of ${formatDuration(interval)} would pass ${last}, the latest time a chain can represent, at height ` +
        `${firstOver} (this run reaches height ${heightEnd})`,
    );
  }
}

/** `__proto__` as a key would be dropped or change an object's prototype on some paths; never allow it. */
function reservedKeys(v: unknown, path: DocPath, add: (p: DocPath, m: string) => void): void {
  if (Array.isArray(v)) {
    v.forEach((item, i) => {
      reservedKeys(item, [...path, i], add);
    });
  } else if (isRecord(v)) {
    for (const [k, child] of Object.entries(v)) {
      if (k === "__proto__") add([...path, k], `key ${quoted(k)} is not allowed`);
      else reservedKeys(child, [...path, k], add);
    }
  }
}

function collectValidators(validators: unknown, add: (p: DocPath, m: string) => void): ReadonlySet<string> | undefined {
  if (validators === undefined) return new Set(SCENARIO_DEFAULTS.validators.map((v) => v.name));
  if (!Array.isArray(validators)) return undefined;
  const names = uniqueValues(validators, (v) => (isRecord(v) ? v.name : undefined), ["name"], "validator", add, [
    "chain",
    "validators",
  ]);
  validators.forEach((v, i) => {
    const name = isRecord(v) ? str(v.name) : undefined;
    if (name === DEFAULT_NODE_KEY || name === ANY_NODE) {
      add(["chain", "validators", i, "name"], `validator name ${quoted(name)} is reserved`);
    }
  });
  return names;
}

/** Collects string values, reporting each repeat at its own path; undefined when an item is malformed. */
function uniqueValues(
  items: readonly unknown[],
  pick: (item: unknown) => unknown,
  within: DocPath,
  what: string,
  add: (p: DocPath, m: string) => void,
  base: DocPath = ["steps"],
): ReadonlySet<string> {
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const value = str(pick(item));
    if (value === undefined) return;
    const seen = first.get(value);
    if (seen === undefined) first.set(value, i);
    else add([...base, i, ...within], `duplicate ${what} ${quoted(value)} (first at ${renderIndex(base, seen)})`);
  });
  return new Set(first.keys());
}

const renderIndex = (base: DocPath, i: number): string => `${base.join(".")}[${i}]`;

function checkBinaries(binaries: unknown, add: (p: DocPath, m: string) => void): void {
  if (!isRecord(binaries)) return;
  for (const [name, binary] of Object.entries(binaries)) {
    if (!isRecord(binary)) continue;
    const modules = new Set<string>([
      ...BASE_MODULES,
      ...(isRecord(binary.modules) ? Object.keys(binary.modules) : []),
    ]);
    if (isRecord(binary.migrations)) {
      for (const [module, versions] of Object.entries(binary.migrations)) {
        const path: DocPath = ["binaries", name, "migrations", module];
        if (!modules.has(module)) add(path, `no module ${quoted(module)} in this binary's modules`);
        if (!Array.isArray(versions)) continue;
        versions.forEach((v, i) => {
          if (versions.indexOf(v) !== i) add([...path, i], `duplicate from-version ${String(v)}`);
        });
      }
    }
    if (isRecord(binary.upgrades)) {
      for (const [plan, upgrade] of Object.entries(binary.upgrades)) {
        if (isRecord(upgrade) && upgrade.failMessage !== undefined && upgrade.handler !== "fail") {
          add(["binaries", name, "upgrades", plan, "failMessage"], 'only allowed with handler "fail"');
        }
      }
    }
  }
}

function keysOf(v: unknown): ReadonlySet<string> | undefined {
  return isRecord(v) ? new Set(Object.keys(v)) : undefined;
}

function union(
  a: ReadonlySet<string> | undefined,
  b: ReadonlySet<string> | undefined,
): ReadonlySet<string> | undefined {
  return a === undefined || b === undefined ? undefined : new Set([...a, ...b]);
}

function without(s: ReadonlySet<string>, name: string): ReadonlySet<string> {
  return new Set([...s].filter((x) => x !== name));
}
