/**
 * Why a node halts. The upgrade PreBlocker produces the first five; `store-load-failed` and `app-hash-mismatch` are
 * produced by the app (store loading at start-up, consensus on the app hash).
 *   upgrade-needed             a due plan has no handler in this binary (`UPGRADE "<n>" NEEDED at height: <h>: <info>`)
 *   binary-too-early           a handler exists for a plan not yet due (`BINARY UPDATED BEFORE TRIGGER! ...`)
 *   downgrade                  the last applied upgrade has no handler (`wrong app version <v>, ...`)
 *   handler-error              the upgrade handler, ApplyUpgrade or reading the stored plan failed
 *   upgrade-info-write-failed  upgrade-info.json could not be written (`unable to write upgrade info to filesystem: ...`)
 */
export const HALT_KINDS = [
  "upgrade-needed",
  "binary-too-early",
  "downgrade",
  "handler-error",
  "upgrade-info-write-failed",
  "store-load-failed",
  "app-hash-mismatch",
] as const;
export type HaltKind = (typeof HALT_KINDS)[number];

export interface Halt {
  readonly kind: HaltKind;
  /** The Go error text the reference returns from PreBlock (the node's CONSENSUS FAILURE reason). */
  readonly message: string;
}
