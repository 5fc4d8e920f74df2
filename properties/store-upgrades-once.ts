import { HOLDS, type Property, type Verdict, violated } from "../src/harness/property.js";
import type { SessionView } from "../src/harness/session-view.js";

/** The store loader's error for an added store that already exists (reference rootmulti loadVersion). */
const ALREADY_EXISTS = "failed to load store: initial version set to";

/**
 * Store upgrades (UpgradeStoreLoader, reference x/upgrade/types/storeloader.go, wired as simapp does): a binary
 * started over a node whose upgrade-info.json names plan P at height H loads P's store upgrades iff its handler
 * for P lists them, H is the node's next block (last committed + 1) and H is not a skip height. Checked over the
 * worlds with store upgrades (plan `v2` adds the store `foo`, renames `legacy` to `foo`, or deletes `legacy`; each
 * run draws one), four ways:
 * - at the upgrade height: a start at which a binary's store upgrades were due never fails to load its stores;
 * - once: no load fails because an added store already exists (what applying them a second time does);
 * - only for the matching name: a store that only a plan's store upgrades add is in a node's committed stores
 *   only when that node applied that plan;
 * - in full: a node that applied a plan with its store upgrades due (it halted for the plan: its upgrade-info.json
 *   names the plan at the applied height) no longer commits a store those upgrades delete or rename away.
 */
/** What one run keeps: the world's store changes (fixed), and node → the app hash at which it last held. */
interface StoreUpgradesState {
  readonly changes: StoreChanges;
  readonly held: Map<string, string>;
}

export const storeUpgradesOnce: Property<StoreUpgradesState> = {
  name: "store-upgrades-once",
  statement: "always: store upgrades are applied in full, once, at the upgrade height, only for the matching name",
  kind: "always",
  catches: ["store-upgrades-wrong-height", "store-upgrades-added-only"],
  worlds: ["store-upgrades", "store-renames", "store-deletes"],
  init: (s) => ({ changes: storeChanges(s), held: new Map() }),
  check(s, state) {
    return dueLoadsSucceed(s) ?? neverTwice(s) ?? storesFollowAppliedPlans(s, state) ?? HOLDS;
  },
};

function storeUpgradesOf(s: SessionView, binary: string, plan: string) {
  const u = s.doc.binaries[binary]?.upgrades?.[plan]?.storeUpgrades;
  const changes = (u?.added?.length ?? 0) + (u?.renamed?.length ?? 0) + (u?.deleted?.length ?? 0);
  return changes === 0 ? undefined : u;
}

/** A node halted by its last start, whose binary's store upgrades were due, failed to load them. */
function dueLoadsSucceed(s: SessionView): Verdict | undefined {
  const sim = s.sim;
  for (const node of sim.nodeNames()) {
    const st = sim.nodeStatus(node)!;
    const last = sim.halts.findLast((h) => h.node === node);
    if (st.status !== "halted" || last?.kind !== "store-load-failed") continue;
    const info = sim.host.readUpgradeInfo(sim.nodeState(node)!);
    if (info.kind !== "ok" || storeUpgradesOf(s, st.binary, info.name) === undefined) continue;
    if (info.height !== st.height + 1 || st.skip.includes(info.height)) continue;
    return violated(
      `${node} started ${st.binary} at height ${st.height} with upgrade-info.json {${info.name}, ${info.height}}: its store upgrades for "${info.name}" were due, but the load failed: ${last.message}`,
    );
  }
  return undefined;
}

function neverTwice(s: SessionView): Verdict | undefined {
  const h = s.sim.halts.find((x) => x.kind === "store-load-failed" && x.message.startsWith(ALREADY_EXISTS));
  return h === undefined
    ? undefined
    : violated(`${h.node} applied store upgrades over a store it already has, at height ${h.height}: ${h.message}`);
}

/** The committed stores of every node agree with the plans it applied: the last two checks of the header. */
function storesFollowAppliedPlans(s: SessionView, { changes, held }: StoreUpgradesState): Verdict | undefined {
  const sim = s.sim;
  // Incremental: a node's verdict depends on its committed state and its upgrade-info.json, which only a halt
  // rewrites and only after the block a verdict is about; `held`: node → the app hash at which it last held.
  for (const node of sim.nodeNames()) {
    const state = sim.nodeState(node)!;
    const appHash = sim.host.lastAppHash(state);
    if (held.get(node) === appHash) continue;
    const c = sim.host.readCommitted(state);
    for (const store of c.stores) {
      const plans = changes.createdBy.get(store);
      if (plans === undefined || [...plans].some((p) => c.applied.has(p))) continue;
      return violated(
        `${node} committed store ${store}, which only the store upgrades of ${[...plans].map((p) => `"${p}"`).join(", ")} add, without applying that plan (applied: ${JSON.stringify(Object.fromEntries(c.applied))})`,
      );
    }
    const info = sim.host.readUpgradeInfo(state);
    for (const [plan, height] of c.applied) {
      if (info.kind !== "ok" || info.name !== plan || info.height !== height) continue;
      const kept = [...(changes.removedBy.get(plan) ?? [])].filter((store) => c.stores.includes(store));
      if (kept.length === 0) continue;
      return violated(
        `${node} applied "${plan}" at height ${height} after halting for it, but still commits ${kept.join(", ")}, which its store upgrades delete or rename away (stores: ${c.stores.join(", ")})`,
      );
    }
    held.set(node, appHash);
  }
  return undefined;
}

/**
 * Over the world's binaries: store → the plans whose store upgrades create it (added, or the target of a rename),
 * and plan → the stores its store upgrades remove (deleted, or the source of a rename).
 */
interface StoreChanges {
  readonly createdBy: ReadonlyMap<string, ReadonlySet<string>>;
  readonly removedBy: ReadonlyMap<string, ReadonlySet<string>>;
}

function storeChanges(s: SessionView): StoreChanges {
  const createdBy = new Map<string, Set<string>>();
  const removedBy = new Map<string, Set<string>>();
  for (const b of Object.values(s.doc.binaries))
    for (const [plan, u] of Object.entries(b.upgrades ?? {})) {
      const renamed = u.storeUpgrades?.renamed ?? [];
      for (const store of [...(u.storeUpgrades?.added ?? []), ...renamed.map((r) => r.to)])
        createdBy.set(store, (createdBy.get(store) ?? new Set()).add(plan));
      for (const store of [...(u.storeUpgrades?.deleted ?? []), ...renamed.map((r) => r.from)])
        removedBy.set(plan, (removedBy.get(plan) ?? new Set()).add(store));
    }
  return { createdBy, removedBy };
}
