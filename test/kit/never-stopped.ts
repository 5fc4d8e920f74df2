import { HOLDS, type Property, violated } from "../../src/harness/property.js";

/**
 * A property whose failure comes later in a simpler world: no validator is ever stopped, and, in a world where a
 * validator has a sidecar, no proposal is submitted. A failing run with sidecars fails at its first proposal; once
 * fast-check shrinks the sidecars away, the same commands fail only at a stop further on.
 */
export const neverStopped: Property = {
  name: "never-stopped",
  statement: "always: no validator is stopped, and with sidecars no proposal is submitted",
  kind: "always",
  catches: [],
  check(s) {
    if (s.steps.some((step) => "stop" in step)) return violated("a validator was stopped");
    const sidecars = Object.keys(s.doc.nodes ?? {}).length;
    if (sidecars > 0 && s.steps.some((step) => "submitProposal" in step))
      return violated(`a proposal was submitted with ${sidecars} sidecars`);
    return HOLDS;
  },
};
