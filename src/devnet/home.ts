import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { err, ok, type Result } from "../core/errors.js";
import { type AppConfig, parseAppToml } from "../server/config.js";
import { UPGRADE_INFO_FILENAME } from "../upgrade/upgrade-info.js";
import { type CometConfig, DEFAULT_COMET_CONFIG, parseCometConfig } from "./comet-config.js";
import { type DevnetConfig, loadDevnetConfig } from "./genesis.js";

/** The node home layout (the reference's): config/, data/, keyring-test/, cosmovisor/. */
export interface HomePaths {
  /** Absolute. */
  readonly home: string;
  readonly appToml: string;
  /** config/config.toml (CometBFT's; the devnet reads its [rpc] section). */
  readonly configToml: string;
  readonly genesis: string;
  /** The binaries file that exists (json, yaml or yml), else the json path. */
  readonly binaries: string;
  readonly data: string;
  /** LevelDB directory of the application state, block log and tx index. */
  readonly db: string;
  readonly upgradeInfo: string;
}

export function homePaths(home: string): HomePaths {
  const h = resolve(home);
  const config = join(h, "config");
  const candidates = ["binaries.json", "binaries.yaml", "binaries.yml"].map((f) => join(config, f));
  return {
    home: h,
    appToml: join(config, "app.toml"),
    configToml: join(config, "config.toml"),
    genesis: join(config, "genesis.json"),
    binaries: candidates.find((p) => existsSync(p)) ?? candidates[0]!,
    data: join(h, "data"),
    db: join(h, "data", "application.db"),
    upgradeInfo: join(h, "data", UPGRADE_INFO_FILENAME),
  };
}

function read(path: string): Result<string, string> {
  try {
    return ok(readFileSync(path, "utf8"));
  } catch (e) {
    const code = (e as { code?: string }).code;
    return err(code === "ENOENT" ? `${path}: no such file (run chainsim init first)` : `${path}: ${String(e)}`);
  }
}

export interface HomeConfig {
  readonly paths: HomePaths;
  readonly app: AppConfig;
  readonly comet: CometConfig;
  /** The genesis document as written (what the RPC's `genesis` shows as app_state). */
  readonly genesisDoc: unknown;
  readonly chain: DevnetConfig;
}

/** Reads app.toml, genesis and binaries of a home; every error is one line naming its file. */
export function readHome(home: string): Result<HomeConfig, string[]> {
  const paths = homePaths(home);
  const appText = read(paths.appToml);
  const genesisText = read(paths.genesis);
  const binariesText = read(paths.binaries);
  if (!appText.ok || !genesisText.ok || !binariesText.ok)
    return err([appText, genesisText, binariesText].flatMap((r) => (r.ok ? [] : [r.error])));
  const app = parseAppToml(appText.value);
  if (!app.ok) return err([`${paths.appToml}: ${app.error.message}`]);
  const chain = loadDevnetConfig(paths.genesis, genesisText.value, paths.binaries, binariesText.value);
  if (!chain.ok) return chain;
  let comet: CometConfig = DEFAULT_COMET_CONFIG;
  if (existsSync(paths.configToml)) {
    const text = read(paths.configToml);
    if (!text.ok) return err([text.error]);
    const c = parseCometConfig(text.value);
    if (!c.ok) return err([`${paths.configToml}: ${c.error}`]);
    comet = c.value;
  }
  return ok({ paths, app: app.value, comet, genesisDoc: JSON.parse(genesisText.value), chain: chain.value });
}
