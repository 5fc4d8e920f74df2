import { base64 } from "@scure/base";
import type { BinaryDef } from "../app/binary.js";
import type { ChainGenesis } from "../app/node-process.js";
import { bech32PrefixProblem, DEFAULT_BECH32_PREFIX } from "../core/address.js";
import { err, ok, type Result } from "../core/errors.js";
import { formatScenarioError, type Scenario, scenarioFromData } from "../scenario/index.js";
import { govParamsOf } from "../scenario/simulate.js";
import { parseSource } from "../scenario/source.js";
import { AUTH_STORE } from "./ante.js";
import { type KeyRecord, pubkeyAddress } from "./keyring.js";

/**
 * A devnet's chain definition, as two files under `<home>/config/`:
 *
 * - `genesis.json`: `{"chain": <scenario chain section>, "accounts": [{"name","address","pubkey"}]}`. `chain` is
 *   exactly the `chain` section of a scenario file (docs/scenario-format.md §2: chainId, validators, accounts with balances,
 *   gov params with Go durations), where validators and balances name their accounts; `accounts` binds each name to
 *   its public key (base64, 33 bytes) and so to its address, bech32(prefix, ripemd160(sha256(pubkey))) (keyring.ts),
 *   where the prefix is `chain.bech32Prefix` (default `chain`). Every
 *   validator and every funded name must be listed. An account's number is its position in `accounts` (0, 1, ...),
 *   as genesis assigns account numbers in order; `address`, when present, must be the key's address.
 * - `binaries.json` (or `.yaml`): `{"genesisBinary"?, "binaries": {...}}`, the `binaries` of a scenario file.
 *
 * Both go through the scenario loader, so they are validated (and defaulted) exactly as a scenario is. Every binary
 * additionally mounts an `auth` module (version 1 unless listed), where the devnet keeps account sequences.
 */

export interface GenesisAccount {
  readonly name: string;
  readonly address: string;
  readonly pubkey: string;
}

export interface GenesisAccountInfo {
  readonly name: string;
  readonly pubkey: Uint8Array;
  readonly accountNumber: bigint;
}

export interface DevnetConfig {
  readonly chainId: string;
  readonly genesis: ChainGenesis;
  readonly binaries: ReadonlyMap<string, BinaryDef>;
  readonly genesisBinary: string;
  /** Genesis accounts by address: public key and account number. */
  readonly accounts: ReadonlyMap<string, GenesisAccountInfo>;
  /** Account addresses by genesis name. */
  readonly addressOf: ReadonlyMap<string, string>;
  /** The resolved scenario view (gov params in ms, validators, balances), for display. */
  readonly scenario: Scenario;
}

/** Short governance periods for a devnet (the reference's are 48h): shown by `init`, editable in genesis.json. */
export const DEVNET_GOV = Object.freeze({
  maxDepositPeriod: "20s",
  votingPeriod: "20s",
  expeditedVotingPeriod: "10s",
  minDeposit: "10000000stake",
  expeditedMinDeposit: "50000000stake",
});

/** The default binaries: v1 at genesis, v2 with a `migrate` handler for plan "v2". */
export const DEFAULT_BINARIES = Object.freeze({
  genesisBinary: "v1",
  binaries: {
    v1: { modules: { auth: 1 } },
    v2: { modules: { auth: 1 }, upgrades: { v2: { handler: "migrate" } } },
  },
});

export interface GenesisOptions {
  readonly chainId: string;
  readonly validators: readonly { readonly key: KeyRecord; readonly power: number }[];
  readonly accounts: readonly { readonly key: KeyRecord; readonly coins: string }[];
  readonly gov?: Readonly<Record<string, string>>;
  /** `chain.bech32Prefix`; absent: not written (the default `chain`). */
  readonly bech32Prefix?: string;
}

/** The genesis document `init` writes. */
export function genesisDocument(o: GenesisOptions): {
  chain: Record<string, unknown>;
  accounts: GenesisAccount[];
} {
  // A validator usually also has a balance: each key is registered once, in first-seen order.
  const keys = [...new Map([...o.validators, ...o.accounts].map((x) => [x.key.name, x.key])).values()];
  return {
    chain: {
      chainId: o.chainId,
      ...(o.bech32Prefix === undefined ? {} : { bech32Prefix: o.bech32Prefix }),
      validators: o.validators.map((v) => ({ name: v.key.name, power: v.power })),
      accounts: Object.fromEntries(o.accounts.map((a) => [a.key.name, a.coins])),
      gov: { ...DEVNET_GOV, ...o.gov },
    },
    accounts: keys.map((k) => ({ name: k.name, address: k.address, pubkey: base64.encode(k.pubkey) })),
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function parseFile(name: string, text: string): Result<unknown, string[]> {
  const src = parseSource(name, text);
  return src.ok ? ok(src.value.data) : err(src.error.map(formatScenarioError));
}

/** Adds the `auth` module to a binary definition that does not list it. */
function withAuth(b: BinaryDef): BinaryDef {
  if (b.modules.has(AUTH_STORE)) return b;
  const modules = new Map(b.modules);
  modules.set(AUTH_STORE, 1);
  return { ...b, modules: new Map([...modules].sort(([a], [c]) => (a < c ? -1 : a > c ? 1 : 0))) };
}

/**
 * The chain's bech32 prefix, read before the accounts (their addresses carry it): `chain.bech32Prefix`, default
 * `chain`. It belongs to genesis as the reference's belongs to its binary: every node of the chain agrees on it.
 */
function genesisPrefix(chain: unknown): Result<string, string> {
  const v = isRecord(chain) ? chain.bech32Prefix : undefined;
  if (v === undefined) return ok(DEFAULT_BECH32_PREFIX);
  if (typeof v !== "string") return err(`expected a string, got ${JSON.stringify(v)}`);
  const problem = bech32PrefixProblem(v);
  return problem === undefined ? ok(v) : err(problem);
}

/**
 * Reads genesis and binaries. Errors name the file and the path inside it
 * (`config/genesis.json: chain.gov.votingPeriod: ...`).
 */
export function loadDevnetConfig(
  genesisName: string,
  genesisText: string,
  binariesName: string,
  binariesText: string,
): Result<DevnetConfig, string[]> {
  const g = parseFile(genesisName, genesisText);
  const b = parseFile(binariesName, binariesText);
  if (!g.ok || !b.ok) return err([...(g.ok ? [] : g.error), ...(b.ok ? [] : b.error)]);
  const errors: string[] = [];
  if (!isRecord(g.value)) return err([`${genesisName}: expected an object {chain, accounts}`]);
  if (!isRecord(b.value)) return err([`${binariesName}: expected an object {genesisBinary?, binaries}`]);
  for (const k of Object.keys(g.value))
    if (k !== "chain" && k !== "accounts") errors.push(`${genesisName}: ${k}: unknown key`);
  for (const k of Object.keys(b.value))
    if (k !== "binaries" && k !== "genesisBinary") errors.push(`${binariesName}: ${k}: unknown key`);
  const prefix = genesisPrefix(g.value.chain);
  if (!prefix.ok) return err([`${genesisName}: chain.bech32Prefix: ${prefix.error}`]);
  const listed = g.value.accounts ?? [];
  const accounts = new Map<string, GenesisAccountInfo>();
  const addressOf = new Map<string, string>();
  if (!Array.isArray(listed)) errors.push(`${genesisName}: accounts: expected a list`);
  else
    listed.forEach((a: unknown, i) => {
      const at = `${genesisName}: accounts.${i}`;
      if (!isRecord(a) || typeof a.name !== "string" || typeof a.pubkey !== "string") {
        errors.push(`${at}: expected {name, address, pubkey}`);
        return;
      }
      let key: Uint8Array | undefined;
      try {
        key = base64.decode(a.pubkey);
      } catch {
        key = undefined;
      }
      if (key === undefined || key.length !== 33) {
        errors.push(`${at}.pubkey: expected base64 of a 33-byte compressed secp256k1 key`);
        return;
      }
      const address = pubkeyAddress(key, prefix.value);
      if (a.address !== undefined && a.address !== address)
        errors.push(
          `${at}.address: expected ${address} (bech32 of ripemd160(sha256(pubkey))), got ${String(a.address)}`,
        );
      else if (addressOf.has(a.name)) errors.push(`${at}.name: duplicate account ${JSON.stringify(a.name)}`);
      else if (accounts.has(address)) errors.push(`${at}.pubkey: duplicate key (address ${address})`);
      else {
        addressOf.set(a.name, address);
        accounts.set(address, { name: a.name, pubkey: key, accountNumber: BigInt(accounts.size) });
      }
    });
  if (errors.length > 0) return err(errors);

  const doc = { name: "devnet", chain: g.value.chain ?? {}, ...b.value };
  const s = scenarioFromData("devnet", doc);
  if (!s.ok)
    return err(
      s.error.map((e) => {
        const file = e.path.startsWith("chain") ? genesisName : binariesName;
        return formatScenarioError({ ...e, file });
      }),
    );
  const params = govParamsOf(s.value.chain.gov, prefix.value);
  if (!params.ok) return err([`${genesisName}: ${params.error}`]);
  const sc = s.value;
  for (const v of sc.chain.validators)
    if (!addressOf.has(v.name)) errors.push(`${genesisName}: chain.validators: ${v.name}: no key in accounts`);
  for (const name of sc.chain.accounts.keys())
    if (!addressOf.has(name)) errors.push(`${genesisName}: chain.accounts.${name}: no key in accounts`);
  if (errors.length > 0) return err(errors);
  const binaries = new Map<string, BinaryDef>([...sc.binaries].map(([n, def]) => [n, withAuth(def)]));
  return ok({
    chainId: sc.chain.chainId,
    genesis: {
      chainId: sc.chain.chainId,
      bech32Prefix: sc.chain.bech32Prefix,
      validators: sc.chain.validators.map((v) => ({ name: v.name, power: v.power, operator: addressOf.get(v.name)! })),
      balances: [...sc.chain.accounts].map(([name, coins]) => ({ address: addressOf.get(name)!, coins })),
      govParams: params.value,
      govConfig: { expeditedFallbackVotes: sc.options.expeditedFallbackVotes, maxMetadataLen: 255 },
    },
    binaries,
    genesisBinary: sc.genesisBinary,
    accounts,
    addressOf,
    scenario: sc,
  });
}

/** Binaries that register a handler for `plan` (what the supervisor switches to). */
export const binariesWithHandler = (cfg: DevnetConfig, plan: string): string[] =>
  [...cfg.binaries.values()].filter((b) => b.upgrades.has(plan)).map((b) => b.name);
