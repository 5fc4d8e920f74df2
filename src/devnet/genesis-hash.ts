import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { toHex } from "../core/bytes.js";
import { err, ok, type Result } from "../core/errors.js";
import type { HomePaths } from "./home.js";

/**
 * CometBFT v0.38's guard against a changed genesis (node.LoadStateFromDBOrGenesisDocProvider): the first start
 * stores the SHA-256 of `config/genesis.json` under `data/`; every later start compares, and a different file (a new
 * chain id or any other edit) is refused with `genesis doc hash in db does not match loaded genesis doc` before any
 * state is opened, so the history a node served is never rewritten under another genesis. `init --overwrite` starts a
 * new chain and forgets the stored hash.
 */
export const GENESIS_HASH_FILE = "genesis-hash";

export function checkGenesisHash(paths: HomePaths): Result<void, string> {
  const stored = join(paths.data, GENESIS_HASH_FILE);
  let digest: string;
  try {
    digest = toHex(sha256(readFileSync(paths.genesis)));
  } catch (e) {
    return err(`failed to read genesis doc: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    if (!existsSync(stored)) {
      const tmp = `${stored}.tmp`;
      writeFileSync(tmp, `${digest}\n`, { mode: 0o600 });
      renameSync(tmp, stored);
      return ok(undefined);
    }
    if (readFileSync(stored, "utf8").trim() !== digest)
      return err("genesis doc hash in db does not match loaded genesis doc");
    return ok(undefined);
  } catch (e) {
    return err(`failed to save genesis doc hash to db: ${e instanceof Error ? e.message : String(e)}`);
  }
}
