import { conformance } from "../src/harness/conformance.js";
import { HOLDS, type Property, violated } from "../src/harness/property.js";

/**
 * The oracle (models/, written from the specification, not from src/) and the real chain agree after every
 * command: height, stall, plan, done markers, protocol version, module version map, each upgrade message's success
 * and exact error, handler runs, halts and every node's status, binary, height and upgrade-info.json.
 */
export const modelAgreement: Property = {
  name: "model-agreement",
  statement: "always: the model and the chain agree",
  kind: "always",
  check(s) {
    const diff = conformance(s);
    return diff.length === 0 ? HOLDS : violated(diff.join("; "));
  },
};
