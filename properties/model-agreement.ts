import { conformance } from "../src/harness/conformance.js";
import { HOLDS, type Property, violated } from "../src/harness/property.js";
import { noneServed, type ServedAnswers } from "../src/harness/upgrade-queries.js";

/**
 * The oracle (models/, written from the specification, not from src/) and the real chain agree after every
 * command: height, stall, plan, done markers, protocol version, module version map, each upgrade message's success
 * and exact error, handler runs, halts and every node's status, binary, height and upgrade-info.json. And what a
 * node holding the committed state serves through its x/upgrade Query service, as a client asks it: ModuleVersions
 * without a name (the whole map, in byte order of the names), with each module's name (that module alone) and with
 * names no module has (the reference's `module version not found` error), CurrentPlan, AppliedPlan of each plan
 * name of the world, and the deprecated UpgradedConsensusState (always empty: the chain has no IBC).
 */
export const modelAgreement: Property<ServedAnswers> = {
  name: "model-agreement",
  statement: "always: the model and the chain agree",
  kind: "always",
  catches: ["off-by-one-due-height", "stale-binary-swap", "unrecorded-migrations"],
  runsMultiplier: 2,
  // Per run: the last x/upgrade query answers served, asked again only when the committed state changed.
  init: noneServed,
  check(s, served) {
    const diff = conformance(s, undefined, served);
    return diff.length === 0 ? HOLDS : violated(diff.join("; "));
  },
};
