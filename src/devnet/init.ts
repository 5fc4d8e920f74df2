import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import { DEFAULT_BECH32_PREFIX } from "../core/address.js";
import { err, ok, type Result } from "../core/errors.js";
import { formatDuration, parseDuration } from "../core/go/duration.js";
import type { Namespace } from "../core/namespace.js";
import { defaultAppToml } from "../server/app-toml.js";
import { cometConfigToml } from "./comet-config.js";
import { COMMIT_RECORD_FILE, writeCommitRecord } from "./commit-record.js";
import { DEFAULT_BINARIES, DEVNET_GOV, genesisDocument, loadDevnetConfig } from "./genesis.js";
import { GENESIS_HASH_FILE } from "./genesis-hash.js";
import { homePaths } from "./home.js";
import { type KeyRecord, keyFromSeed, newKey, saveKey } from "./keyring.js";
import { LevelBackend } from "./level-backend.js";

/**
 * `chainsim init`: writes a devnet home. Files: config/app.toml (the reference template with api.enable = true,
 * loopback listeners and minimum-gas-prices set), config/genesis.json (short gov periods), config/binaries.json
 * (or the given binaries file, validated), and one test-keyring key per validator plus a funded account `alice`.
 */
export interface InitOptions {
  readonly home: string;
  readonly chainId: string;
  /** Number of validators val1..valN, power 100 each. */
  readonly validators: number;
  /** A binaries file to copy (scenario `binaries` form); default: v1 and v2 with a handler for plan "v2". */
  readonly binaries?: { readonly path: string; readonly text: string };
  readonly depositPeriod?: string;
  readonly votingPeriod?: string;
  readonly minimumGasPrices?: string;
  readonly apiAddress?: string;
  readonly grpcAddress?: string;
  /** config.toml `rpc.laddr` (default tcp://127.0.0.1:26657). */
  readonly rpcAddress?: string;
  /** Derives keys from this text instead of randomness (reproducible devnets and tests). */
  readonly keySeed?: string;
  /** Replace an existing genesis (and the state under data/). */
  readonly overwrite?: boolean;
  /** app.toml `[chainsim] namespace` (default `chain`). */
  readonly namespace?: Namespace;
  /** genesis.json `chain.bech32Prefix`, the keys' addresses' prefix (absent: `chain`, and the key is not written). */
  readonly bech32Prefix?: string;
}

export interface InitReport {
  readonly home: string;
  readonly chainId: string;
  readonly files: readonly string[];
  readonly keys: readonly { readonly name: string; readonly address: string }[];
  readonly gov: Readonly<Record<string, string>>;
}

export const FUNDED_ACCOUNT = "alice";
const BALANCE = "1000000000000stake";

function write(path: string, text: string, mode = 0o644): Result<void, string> {
  try {
    writeFileSync(path, text, { mode });
    return ok(undefined);
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
}

export function initHome(o: InitOptions): Result<InitReport, string> {
  const paths = homePaths(o.home);
  if (!Number.isSafeInteger(o.validators) || o.validators < 1 || o.validators > 100)
    return err(`--validators must be between 1 and 100, got ${o.validators}`);
  if (existsSync(paths.genesis) && o.overwrite !== true)
    return err(`genesis.json file already exists: ${paths.genesis}`);
  const prefix = o.bech32Prefix ?? DEFAULT_BECH32_PREFIX;
  const key = (name: string): KeyRecord =>
    o.keySeed === undefined ? newKey(name, prefix) : keyFromSeed(name, `${o.keySeed}/${name}`, prefix);
  const validators = Array.from({ length: o.validators }, (_, i) => ({ key: key(`val${i + 1}`), power: 100 }));
  const accounts = [
    ...validators.map((v) => ({ key: v.key, coins: BALANCE })),
    { key: key(FUNDED_ACCOUNT), coins: BALANCE },
  ];
  let expedited: string | undefined;
  if (o.votingPeriod !== undefined) {
    // The expedited period must stay strictly below the regular one: half of it.
    const v = parseDuration(o.votingPeriod);
    if (!v.ok) return err(`--voting-period: ${v.error}`);
    expedited = formatDuration(Math.max(1, Math.floor(v.value / 2)));
  }
  const gov = {
    ...DEVNET_GOV,
    ...(o.depositPeriod === undefined ? {} : { maxDepositPeriod: o.depositPeriod }),
    ...(o.votingPeriod === undefined ? {} : { votingPeriod: o.votingPeriod }),
    ...(expedited === undefined ? {} : { expeditedVotingPeriod: expedited }),
  };
  const doc = genesisDocument({
    chainId: o.chainId,
    validators,
    accounts,
    gov,
    ...(o.bech32Prefix === undefined ? {} : { bech32Prefix: o.bech32Prefix }),
  });
  const genesisText = `${JSON.stringify(doc, null, 2)}\n`;
  const binariesPath =
    o.binaries === undefined ? paths.binaries : join(paths.home, "config", `binaries${extname(o.binaries.path)}`);
  const binariesText = o.binaries?.text ?? `${JSON.stringify(DEFAULT_BINARIES, null, 2)}\n`;
  const checked = loadDevnetConfig(paths.genesis, genesisText, binariesPath, binariesText);
  if (!checked.ok) return err(checked.error.join("\n"));

  try {
    // CometBFT's EnsureDir(dir, 0700): the home, config/ and data/ are private to the operator.
    mkdirSync(paths.home, { recursive: true, mode: 0o700 });
    mkdirSync(join(paths.home, "config"), { recursive: true, mode: 0o700 });
    mkdirSync(paths.data, { recursive: true, mode: 0o700 });
    if (o.overwrite === true) {
      rmSync(paths.db, { recursive: true, force: true });
      rmSync(join(paths.data, COMMIT_RECORD_FILE), { force: true });
      rmSync(join(paths.data, GENESIS_HASH_FILE), { force: true });
      rmSync(paths.upgradeInfo, { force: true });
      for (const ext of [".json", ".yaml", ".yml"])
        rmSync(join(paths.home, "config", `binaries${ext}`), { force: true });
    }
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
  const appToml = defaultAppToml({
    minimumGasPrices: o.minimumGasPrices ?? "0stake",
    api: { enable: true, address: o.apiAddress ?? "tcp://127.0.0.1:1317" },
    grpc: { address: o.grpcAddress ?? "127.0.0.1:9090" },
    // Nothing in the devnet serves gRPC-Web: the home does not advertise it.
    grpcWebEnable: false,
    namespace: o.namespace ?? "chain",
  });
  const files: string[] = [];
  for (const [path, text] of [
    [paths.appToml, appToml],
    [paths.configToml, cometConfigToml(o.rpcAddress)],
    [paths.genesis, genesisText],
    [binariesPath, binariesText],
  ] as const) {
    const w = write(path, text);
    if (!w.ok) return w;
    files.push(path);
  }
  for (const a of accounts) {
    const s = saveKey(paths.home, a.key);
    if (!s.ok) return s;
    files.push(s.value);
  }
  return ok({
    home: paths.home,
    chainId: o.chainId,
    files,
    keys: accounts.map((a) => ({ name: a.key.name, address: a.key.address })),
    gov,
  });
}

/**
 * `initHome`, then the node's storage: an empty database under data/ and the commit record at height 0. Only
 * init creates the database; `start` refuses a home without one (level-backend.ts, commit-record.ts).
 */
export async function initNode(o: InitOptions): Promise<Result<InitReport, string>> {
  const r = initHome(o);
  if (!r.ok) return r;
  const paths = homePaths(o.home);
  const db = await LevelBackend.open(paths.db, { createIfMissing: true });
  if (!db.ok) return err(db.error.message);
  await db.value.close();
  try {
    writeCommitRecord(join(paths.data, COMMIT_RECORD_FILE), { height: 0, appHash: "" });
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
  return ok({ ...r.value, files: [...r.value.files, paths.db, join(paths.data, COMMIT_RECORD_FILE)] });
}
