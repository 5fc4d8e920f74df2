/**
 * Predicts what a scenario binary's upgrade handler does, from the RunMigrations rules of docs/fidelity.md §2.7
 * and the binary shape of docs/scenario-format.md §2. Pure data in, pure data out.
 */
import { compareUtf8 } from "../src/core/bytes.js";

/** Module name → consensus version. */
export type VersionMap = Readonly<Record<string, number>>;

export interface StoreUpgradesSpec {
  readonly added?: readonly string[];
  readonly renamed?: readonly { readonly from: string; readonly to: string }[];
  readonly deleted?: readonly string[];
}

export interface UpgradeDefinition {
  readonly handler: "migrate" | "noop" | "fail";
  readonly failMessage?: string;
  readonly storeUpgrades?: StoreUpgradesSpec;
}

/** A binary as the scenario file defines it. */
export interface BinaryDefinition {
  readonly modules?: VersionMap;
  /** Module → from-versions that have a registered migration v → v+1. */
  readonly migrations?: Readonly<Record<string, readonly number[]>>;
  readonly upgrades?: Readonly<Record<string, UpgradeDefinition>>;
}

/**
 * A handler's outcome. On success `versionMap` is the handler's returned map (toVM) and `effects` lists the store
 * markers it wrote, in order: `migrate:<module>:<from>` per migration step, `genesis:<module>` per new module.
 */
export type HandlerOutcome =
  | { readonly ok: true; readonly versionMap: VersionMap; readonly effects: readonly string[] }
  | { readonly ok: false; readonly error: string };

/** Modules every binary has at version 1 unless it lists them. */
export const DEFAULT_MODULES: VersionMap = { bank: 1, gov: 1, upgrade: 1 };

export const DEFAULT_FAIL_MESSAGE = "upgrade handler failed";

const has = (o: object, k: string): boolean => Object.hasOwn(o, k);

/** Go's sort.Strings order: byte order of the UTF-8 encodings. */
export const compareNames = (a: string, b: string): number => compareUtf8(a, b);

/** The binary's module manager version map: its modules plus the defaults (listed values win). */
export function binaryModules(def: BinaryDefinition): VersionMap {
  return { ...DEFAULT_MODULES, ...(def.modules ?? {}) };
}

/** DefaultMigrationsOrder: names in byte order with `auth` moved last. */
export function migrationOrder(modules: readonly string[]): readonly string[] {
  const sorted = [...modules].sort(compareNames);
  return sorted.includes("auth") ? [...sorted.filter((m) => m !== "auth"), "auth"] : sorted;
}

/** RunMigrations(fromVM) of the binary's module manager (docs/fidelity.md §2.7). */
export function runMigrations(def: BinaryDefinition, fromVM: VersionMap): HandlerOutcome {
  const modules = binaryModules(def);
  const migrations = def.migrations ?? {};
  const effects: string[] = [];
  const updated: [string, number][] = [];
  for (const m of migrationOrder(Object.keys(modules))) {
    const to = modules[m] ?? 0;
    if (has(fromVM, m)) {
      const from = fromVM[m] ?? 0;
      if (!(to <= 1 || from === to || from > to)) {
        const registered = has(migrations, m) ? (migrations[m] ?? []) : [];
        if (registered.length === 0) return { ok: false, error: `no migrations found for module ${m}: not found` };
        for (let i = from; i < to; i++) {
          if (!registered.includes(i)) {
            return {
              ok: false,
              error: `no migration found for module ${m} from version ${i} to version ${i + 1}: not found`,
            };
          }
          effects.push(`migrate:${m}:${i}`);
        }
      }
    } else {
      effects.push(`genesis:${m}`);
    }
    updated.push([m, to]);
  }
  return { ok: true, versionMap: Object.fromEntries(updated), effects };
}

/** The handler the binary registers for `planName` run on `fromVM`; null when it registers none. */
export function handlerOutcome(def: BinaryDefinition, planName: string, fromVM: VersionMap): HandlerOutcome | null {
  const upgrades = def.upgrades ?? {};
  if (!has(upgrades, planName)) return null;
  const upgrade = upgrades[planName];
  if (upgrade === undefined) return null;
  switch (upgrade.handler) {
    case "fail":
      return { ok: false, error: upgrade.failMessage ?? DEFAULT_FAIL_MESSAGE };
    case "noop":
      return { ok: true, versionMap: fromVM, effects: [] };
    case "migrate":
      return runMigrations(def, fromVM);
  }
}

/** SetModuleVersionMap: writes every entry of `toVM` and never deletes; an empty `toVM` changes nothing. */
export function mergeVersionMaps(stored: VersionMap, toVM: VersionMap): VersionMap {
  const merged = new Map<string, number>(Object.entries(stored));
  for (const [m, v] of Object.entries(toVM)) merged.set(m, v);
  return Object.fromEntries([...merged.entries()].sort(([a], [b]) => compareNames(a, b)));
}

/** True when a store-upgrade spec changes anything (the loader ignores an all-empty one, docs/fidelity.md §2.6). */
export function storeUpgradesNonEmpty(spec: StoreUpgradesSpec | undefined): spec is StoreUpgradesSpec {
  return (
    spec !== undefined &&
    ((spec.added?.length ?? 0) > 0 || (spec.renamed?.length ?? 0) > 0 || (spec.deleted?.length ?? 0) > 0)
  );
}
