/**
 * The CI budget of the property suite: runs per property in `npm test`, and the bound within which a planted bug
 * must be found. FC_RUNS overrides the runs (e.g. a nightly soak).
 */
export const CI_RUNS = Number(process.env.FC_RUNS ?? 30);
export const PLANTED_BUG_RUNS = 400;
/** A planted bug's counterexample must shrink to at most this many commands. */
export const SHRUNK_COMMANDS_MAX = 6;
export const CI_SEED = Number(process.env.FC_SEED ?? 20261122);
