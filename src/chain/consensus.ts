/** What one running node produced for a block attempt. */
export type NodeExecution =
  | { readonly node: string; readonly power: number; readonly ok: true; readonly appHash: string }
  | { readonly node: string; readonly power: number; readonly ok: false };

export type CommitDecision =
  | {
      readonly commit: true;
      readonly appHash: string;
      /** Nodes that reached the winning app hash, in input order; they commit the block. */
      readonly committers: readonly string[];
      /** Nodes that executed without error but reached another app hash; they halt (app-hash-mismatch). */
      readonly mismatched: readonly string[];
    }
  | { readonly commit: false };

/**
 * An interception point over the commit decision (none in production: the planted-fault catalog, src/faults/, is
 * the only user). It receives the decision of the rule below and what it was decided from.
 */
export type ConsensusHook = (
  decision: CommitDecision,
  executions: readonly NodeExecution[],
  totalPower: number,
) => CommitDecision;

/**
 * The consensus rule of docs/scenario-format.md §1: block h commits when the running nodes that executed it without error
 * and reached the same app hash hold MORE than 2/3 of the total voting power (all validators, whatever their
 * state). Otherwise nothing commits and the chain stalls. Pure.
 */
export function decideCommit(executions: readonly NodeExecution[], totalPower: number): CommitDecision {
  const powerByHash = new Map<string, number>();
  for (const e of executions) if (e.ok) powerByHash.set(e.appHash, (powerByHash.get(e.appHash) ?? 0) + e.power);
  for (const [appHash, power] of powerByHash) {
    if (3 * power > 2 * totalPower) {
      const committers: string[] = [];
      const mismatched: string[] = [];
      for (const e of executions) {
        if (!e.ok) continue;
        (e.appHash === appHash ? committers : mismatched).push(e.node);
      }
      return { commit: true, appHash, committers, mismatched };
    }
  }
  return { commit: false };
}
