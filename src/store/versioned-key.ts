import type { PruningOptions } from "./pruning.js";
import { pruningText } from "./versioned-committed.js";

/**
 * The versioned multistore's execution key (`VersionedMultiStore.executionKey`, whose doc says why equal keys mean
 * equal stores), built from its parts and memoized: the key is read per node and block, and is rebuilt only when
 * one of its parts changed (each part is a primitive, or an object replaced, never mutated, when it changes, so
 * the parts are compared by identity). The facts are read where they live (the committed stores' getters), so a
 * read whose parts did not change allocates nothing.
 */
export interface ExecutionKeyFacts {
  /** The history digest (versioned-committed.ts); the key is only built while it is known. */
  readonly history: string | undefined;
  readonly latest: number;
  readonly earliest: number;
  readonly compacted: number;
  readonly initialVersion: number;
  readonly pruning: PruningOptions;
}

export interface ExecutionKeyMemo extends ExecutionKeyFacts {
  /** The mounted names in byte order, joined. */
  readonly mountedKey: string;
  /** The live names in byte order (a frozen array, replaced when it changes). */
  readonly live: readonly string[];
  readonly text: string;
}

/** True when `prev` was built from exactly these parts. */
function sameParts(
  prev: ExecutionKeyMemo,
  facts: ExecutionKeyFacts,
  mountedKey: string,
  live: readonly string[],
): boolean {
  return (
    prev.history === facts.history &&
    prev.latest === facts.latest &&
    prev.earliest === facts.earliest &&
    prev.compacted === facts.compacted &&
    prev.initialVersion === facts.initialVersion &&
    prev.pruning === facts.pruning &&
    prev.mountedKey === mountedKey &&
    prev.live === live
  );
}

/** `prev` when it was built from the same parts, else the key of the parts. */
export function executionKeyOf(
  prev: ExecutionKeyMemo | undefined,
  facts: ExecutionKeyFacts,
  mountedKey: string,
  live: readonly string[],
): ExecutionKeyMemo {
  if (prev !== undefined && sameParts(prev, facts, mountedKey, live)) return prev;
  const { history, latest, earliest, compacted, initialVersion, pruning } = facts;
  const text = [
    history,
    latest,
    earliest,
    compacted,
    initialVersion,
    pruningText(pruning),
    mountedKey,
    live.join(","),
  ].join("|");
  return { history, latest, earliest, compacted, initialVersion, pruning, mountedKey, live, text };
}
