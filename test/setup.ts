import fc from "fast-check";

// Property runs are reproducible in CI: a fixed global seed unless FC_SEED overrides it.
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: Number(process.env.FC_SEED ?? 20261122) });
