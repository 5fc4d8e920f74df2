import type { CosmovisorOperator, OperatorConfig } from "../app/operator.js";
import { err, ok, type Result } from "../core/errors.js";
import type { RecoveryMember } from "./halt-recovery.js";

/**
 * What-ifs of `explore halt-recovery`, given on the command line (`--what-if`, repeatable):
 *
 * - `no-backups`: every cosmovisor skips its backup (UNSAFE_SKIP_BACKUP);
 * - `<node|all>: <change>...`, changes applied left to right:
 *   `cosmovisor` (runs cosmovisor, with cosmovisor's defaults unless it already did; the person stays as its
 *   fallback), `autoDownload` (cosmovisor downloads the binary: the node's own download settings, else an instant
 *   one that never fails), `no-backup`, `manual` (the person alone, without cosmovisor), `on-call` (the person is
 *   reachable at any hour), `never` (nobody brings the node back).
 */

/** A what-if: its label and the population it makes. */
export interface WhatIf {
  readonly label: string;
  readonly members: readonly RecoveryMember[];
}

const CHANGES = ["cosmovisor", "autoDownload", "no-backup", "manual", "on-call", "never"] as const;
type Change = (typeof CHANGES)[number];

/** cosmovisor's defaults (args.go), as resolve-operator.ts fills them. */
const defaultCosmovisor = (hasManual: boolean): CosmovisorOperator => ({
  pollIntervalMs: 300,
  restartAfterUpgrade: true,
  shutdownGraceMs: 0,
  restartDelayMs: 0,
  unsafeSkipBackup: false,
  backup: { kind: "fixed", ms: 0 },
  autoDownload: undefined,
  preUpgradeExitCodes: [1],
  preUpgradeDuration: { kind: "fixed", ms: 0 },
  preUpgradeMaxRetries: 0,
  onFailure: hasManual ? "manual" : "stall",
});

function change(op: OperatorConfig | undefined, c: Change): Result<OperatorConfig, string> {
  const base: OperatorConfig = op ?? { binaries: new Map() };
  const visor = base.cosmovisor ?? defaultCosmovisor(base.manual !== undefined);
  switch (c) {
    case "cosmovisor":
      return ok({ ...base, cosmovisor: visor });
    case "autoDownload":
      return ok({
        ...base,
        cosmovisor: {
          ...visor,
          autoDownload: visor.autoDownload ?? { duration: { kind: "fixed", ms: 0 }, failureProbability: 0 },
        },
      });
    case "no-backup":
      return ok(base.cosmovisor === undefined ? base : { ...base, cosmovisor: { ...visor, unsafeSkipBackup: true } });
    case "manual":
      return base.manual === undefined
        ? err("has no person (`manual`) to run it alone")
        : ok({ ...base, cosmovisor: undefined });
    case "on-call":
      return base.manual === undefined
        ? err("has no person (`manual`) to put on call")
        : ok({
            ...base,
            manual: {
              ...base.manual,
              ...(base.manual.calendar === undefined ? {} : { calendar: { ...base.manual.calendar, onCall: true } }),
            },
          });
    case "never":
      return ok({ binaries: base.binaries });
  }
}

/** Applies one `--what-if` to the population; an error names the flag and what is wrong. */
export function applyWhatIf(text: string, members: readonly RecoveryMember[]): Result<WhatIf, string> {
  const t = text.trim();
  const flag = `--what-if ${JSON.stringify(text)}`;
  if (t === "no-backups")
    return ok({
      label: t,
      members: members.map((m) =>
        m.operator?.cosmovisor === undefined
          ? m
          : { ...m, operator: { ...m.operator, cosmovisor: { ...m.operator.cosmovisor, unsafeSkipBackup: true } } },
      ),
    });
  const colon = t.indexOf(":");
  if (colon < 0) return err(`${flag}: expected "no-backups" or "<node|all>: <change>..."`);
  const target = t.slice(0, colon).trim();
  const words = t
    .slice(colon + 1)
    .trim()
    .split(/\s+/)
    .filter((w) => w !== "");
  if (target !== "all" && !members.some((m) => m.name === target))
    return err(`${flag}: no validator "${target}" (${members.map((m) => m.name).join(", ")})`);
  if (words.length === 0) return err(`${flag}: no change given (${CHANGES.join(", ")})`);
  const unknown = words.find((w) => !(CHANGES as readonly string[]).includes(w));
  if (unknown !== undefined) return err(`${flag}: unknown change "${unknown}" (${CHANGES.join(", ")})`);
  const out: RecoveryMember[] = [];
  for (const m of members) {
    if (target !== "all" && m.name !== target) {
      out.push(m);
      continue;
    }
    let op: OperatorConfig | undefined = m.operator;
    for (const w of words as Change[]) {
      const r = change(op, w);
      if (!r.ok) return err(`${flag}: ${m.name} ${r.error}`);
      op = r.value;
    }
    out.push({ ...m, operator: op, sidecarDelayMs: undefined });
  }
  return ok({ label: t, members: out });
}
