/**
 * Uniform queries over the two binary shapes the oracle accepts (abstract handlers or scenario definitions).
 */
import {
  type BinaryDefinition,
  binaryModules,
  type HandlerOutcome,
  handlerOutcome,
  type StoreUpgradesSpec,
  storeUpgradesNonEmpty,
  type VersionMap,
} from "./binary-outcome.js";
import type { AbstractBinary, BinaryInput } from "./types.js";

const isAbstract = (b: BinaryInput): b is AbstractBinary => Object.hasOwn(b, "handlers");

/** HasHandler: exact-string presence of a registered handler. */
export function hasHandler(binary: BinaryInput, planName: string): boolean {
  if (isAbstract(binary)) return Object.hasOwn(binary.handlers, planName);
  return Object.hasOwn(binary.upgrades ?? {}, planName);
}

/** The handler's outcome on `fromVM`; null when the binary has no handler for the plan. */
export function runHandler(binary: BinaryInput, planName: string, fromVM: VersionMap): HandlerOutcome | null {
  if (!isAbstract(binary)) return handlerOutcome(binary, planName, fromVM);
  if (!Object.hasOwn(binary.handlers, planName)) return null;
  const h = binary.handlers[planName];
  if (h === undefined) return null;
  return h === "ok" ? { ok: true, versionMap: fromVM, effects: [] } : { ok: false, error: h.error };
}

/** The store upgrades the binary lists for the plan, only when they change something. */
export function storeUpgradesFor(binary: BinaryInput, planName: string): StoreUpgradesSpec | null {
  const spec = isAbstract(binary)
    ? Object.hasOwn(binary.storeUpgrades ?? {}, planName)
      ? binary.storeUpgrades?.[planName]
      : undefined
    : Object.hasOwn(binary.upgrades ?? {}, planName)
      ? binary.upgrades?.[planName]?.storeUpgrades
      : undefined;
  return storeUpgradesNonEmpty(spec) ? spec : null;
}

/** Genesis version map of a binary (abstract binaries only have the default modules). */
export function genesisVersionMap(binary: BinaryInput | undefined): VersionMap {
  const def: BinaryDefinition = binary === undefined || isAbstract(binary) ? {} : binary;
  return binaryModules(def);
}
