import type { FileSystem } from "../core/fs.js";

/**
 * What a process needs to share one block's execution between nodes (SimNodeProcess `executionKey`,
 * `lastExecutionShareable`, `adoptCommitted`):
 *
 * - `identityOf`: identity numbers of binary definitions, genesis objects and hooks, for execution keys (the same
 *   object, the same number; never reused within a run);
 * - `SharedExecution`: what an execution that may be shared started from and set outside the store;
 * - `CountingFs`: the keeper's view of the node's file system, counting the calls that may change it, so a block
 *   that wrote to it is never shared.
 */
const identities = new WeakMap<object, number>();
let nextIdentity = 1;
export function identityOf(o: object): number {
  let id = identities.get(o);
  if (id === undefined) identities.set(o, (id = nextIdentity++));
  return id;
}

/** A shareable execution: the execution key it started from, and what it set outside the store. */
export interface SharedExecution {
  readonly key: string;
  /** The keeper's upgrade-height gauge (`server_info{upgrade_height}`), if the block set it. */
  readonly upgradeHeightSet: bigint | undefined;
  /** The in-memory protocol version, if the block set it (an upgrade applied). */
  readonly protocolVersionSet: bigint | undefined;
}

/** A FileSystem that counts the calls that may change it (failed ones included). */
export class CountingFs implements FileSystem {
  readonly #fs: FileSystem;
  mutations = 0;
  constructor(fs: FileSystem) {
    this.#fs = fs;
  }
  readFile(path: string) {
    return this.#fs.readFile(path);
  }
  writeFile(path: string, data: string, mode: number) {
    this.mutations++;
    return this.#fs.writeFile(path, data, mode);
  }
  mkdirAll(path: string, mode: number) {
    this.mutations++;
    return this.#fs.mkdirAll(path, mode);
  }
  exists(path: string): boolean {
    return this.#fs.exists(path);
  }
}
