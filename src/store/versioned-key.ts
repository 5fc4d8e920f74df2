import type { PruningOptions } from "./pruning.js";
import { pruningText } from "./versioned-committed.js";

/**
 * The versioned multistore's execution key (`VersionedMultiStore.executionKey`, whose doc says why equal keys mean
 * equal stores), built from its parts and memoized: the key is read per node and block, and is rebuilt only when
 * one of its parts changed (each part is a primitive, or an object replaced, never mutated, when it changes, so
 * the parts are compared by identity).
 */
export interface ExecutionKeyParts {
  /** The history digest (versioned-committed.ts). */
  readonly history: string;
  readonly latest: number;
  readonly earliest: number;
  readonly compacted: number;
  readonly initialVersion: number;
  readonly pruning: PruningOptions;
  /** The mounted names in byte order, joined. */
  readonly mountedKey: string;
  /** The live names in byte order (a frozen array, replaced when it changes). */
  readonly live: readonly string[];
}

export interface ExecutionKeyMemo extends ExecutionKeyParts {
  readonly text: string;
}

/** `prev` when it was built from the same parts, else the key of `parts`. */
export function executionKeyOf(prev: ExecutionKeyMemo | undefined, parts: ExecutionKeyParts): ExecutionKeyMemo {
  if (
    prev !== undefined &&
    prev.history === parts.history &&
    prev.latest === parts.latest &&
    prev.earliest === parts.earliest &&
    prev.compacted === parts.compacted &&
    prev.initialVersion === parts.initialVersion &&
    prev.pruning === parts.pruning &&
    prev.mountedKey === parts.mountedKey &&
    prev.live === parts.live
  )
    return prev;
  const text = [
    parts.history,
    parts.latest,
    parts.earliest,
    parts.compacted,
    parts.initialVersion,
    pruningText(parts.pruning),
    parts.mountedKey,
    parts.live.join(","),
  ].join("|");
  return { ...parts, text };
}
