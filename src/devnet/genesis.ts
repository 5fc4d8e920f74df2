import { base64 } from "@scure/base";
import type { BinaryDef } from "../app/binary.js";
import type { ChainGenesis } from "../app/node-process.js";
import { addressOfName } from "../core/address.js";
import { err, ok, type Result } from "../core/errors.js";
import { formatScenarioError, type Scenario, scenarioFromData } from "../scenario/index.js";
import { govParamsOf } from "../scenario/simulate.js";
import { parseSource } from "../scenario/source.js";
import { AUTH_STORE } from "./ante.js";
import type { KeyRecord } from "./keyring.js";

/**
 * A devnet's chain definition, as two files under `<home>/config/`:
 *
 * - `genesis.json`: `{"chain": <scenario chain section>, "accounts": [{"name","address","pubkey"}]}`. `chain` is
 *   exactly the `chain` section of a scenario file (docs/scenario-format.md §2: chainId, validators, accounts with balances,
 *   gov params with Go durations); `accounts` registers the public key (base64, 33 bytes) of each account that may
 *   sign, by name (address = bech32(sha256(name)[0:20]), see keyring.ts).
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

export interface DevnetConfig {
  readonly chainId: string;
  readonly genesis: ChainGenesis;
  readonly binaries: ReadonlyMap<string, BinaryDef>;
  readonly genesisBinary: string;
  /** Registered public keys by address. */
  readonly pubkeys: ReadonlyMap<string, Uint8Array>;
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
  const accounts = g.value.accounts ?? [];
  const pubkeys = new Map<string, Uint8Array>();
  if (!Array.isArray(accounts)) errors.push(`${genesisName}: accounts: expected a list`);
  else
    accounts.forEach((a: unknown, i) => {
      const at = `${genesisName}: accounts.${i}`;
      if (!isRecord(a) || typeof a.name !== "string" || typeof a.pubkey !== "string") {
        errors.push(`${at}: expected {name, address, pubkey}`);
        return;
      }
      const address = addressOfName(a.name);
      if (a.address !== undefined && a.address !== address)
        errors.push(`${at}.address: expected ${address} (bech32 of sha256(name)[0:20]), got ${String(a.address)}`);
      let key: Uint8Array | undefined;
      try {
        key = base64.decode(a.pubkey);
      } catch {
        key = undefined;
      }
      if (key === undefined || key.length !== 33) errors.push(`${at}.pubkey: expected base64 of a 33-byte key`);
      else pubkeys.set(address, key);
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
  const params = govParamsOf(s.value.chain.gov);
  if (!params.ok) return err([`${genesisName}: ${params.error}`]);
  const sc = s.value;
  const binaries = new Map<string, BinaryDef>([...sc.binaries].map(([n, def]) => [n, withAuth(def)]));
  return ok({
    chainId: sc.chain.chainId,
    genesis: {
      chainId: sc.chain.chainId,
      validators: sc.chain.validators.map((v) => ({ name: v.name, power: v.power })),
      balances: [...sc.chain.accounts].map(([name, coins]) => ({ address: addressOfName(name), coins })),
      govParams: params.value,
      govConfig: { expeditedFallbackVotes: sc.options.expeditedFallbackVotes, maxMetadataLen: 255 },
    },
    binaries,
    genesisBinary: sc.genesisBinary,
    pubkeys,
    scenario: sc,
  });
}

/** Binaries that register a handler for `plan` (what the supervisor switches to). */
export const binariesWithHandler = (cfg: DevnetConfig, plan: string): string[] =>
  [...cfg.binaries.values()].filter((b) => b.upgrades.has(plan)).map((b) => b.name);
