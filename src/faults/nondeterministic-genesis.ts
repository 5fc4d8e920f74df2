import type { FaultDefinition } from "./hooks.js";

/** A process-global counter: the only state in the simulator that outlives a run (that is the fault). */
let leakyCounter = 0;

/** The genesis app hash carries a process-global counter, so two runs of one scenario differ. */
export const nondeterministicGenesis = {
  name: "nondeterministic-genesis",
  breaks: "the genesis trace carries a process-global counter",
  hooks: { genesisAppHash: (hash) => `${hash}-${++leakyCounter}` },
  // A scenario runs once per process here, so no scenario file can see a counter that differs between runs.
  caughtBy: { scenarios: [] },
  replayFails: false,
} as const satisfies FaultDefinition;
