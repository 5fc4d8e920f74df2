import { parse } from "smol-toml";
import { err, ok, type Result } from "../core/errors.js";
import { parseDuration } from "../core/go/duration.js";

/**
 * The devnet's `config/config.toml`: the CometBFT settings a single-process node uses, i.e. the `[rpc]` section.
 * Other sections of a CometBFT config.toml are accepted and ignored. A home without the file (made by an older
 * `init`) gets the defaults. `laddr = ""` turns the RPC off.
 */
export interface CometConfig {
  readonly rpc: {
    /** `tcp://host:port`, or "" (no RPC listener). */
    readonly laddr: string;
    readonly maxOpenConnections: number;
    readonly maxBodyBytes: number;
    readonly timeoutBroadcastTxCommitMs: number;
  };
}

export const DEFAULT_RPC_LADDR = "tcp://127.0.0.1:26657";

export const DEFAULT_COMET_CONFIG: CometConfig = Object.freeze({
  rpc: Object.freeze({
    laddr: DEFAULT_RPC_LADDR,
    maxOpenConnections: 900,
    maxBodyBytes: 1_000_000,
    timeoutBroadcastTxCommitMs: 10_000,
  }),
});

export const cometConfigToml = (laddr: string = DEFAULT_RPC_LADDR): string =>
  [
    "# CometBFT settings read by the devnet node (a single process: only [rpc] applies).",
    "",
    "[rpc]",
    "# TCP address of the CometBFT RPC (JSON-RPC over POST, URI over GET); empty to disable it.",
    `laddr = ${JSON.stringify(laddr)}`,
    "max_open_connections = 900",
    "max_body_bytes = 1000000",
    'timeout_broadcast_tx_commit = "10s"',
    "",
  ].join("\n");

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses config.toml; errors name the key (`rpc.max_body_bytes: expected a positive integer`). */
export function parseCometConfig(text: string): Result<CometConfig, string> {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    return err((e instanceof Error ? e.message : String(e)).split("\n")[0]!);
  }
  const rpc = isRecord(doc) && isRecord(doc.rpc) ? doc.rpc : {};
  const d = DEFAULT_COMET_CONFIG.rpc;
  const laddr = rpc.laddr ?? d.laddr;
  if (typeof laddr !== "string" || (laddr !== "" && !/^tcp:\/\/[^\s/]*:[0-9]{1,5}$/.test(laddr)))
    return err(`rpc.laddr: expected "tcp://host:port" or "", got ${JSON.stringify(laddr)}`);
  const int = (key: string, v: unknown, fallback: number): Result<number, string> => {
    if (v === undefined) return ok(fallback);
    const n = typeof v === "bigint" ? Number(v) : v;
    return typeof n === "number" && Number.isSafeInteger(n) && n >= 0
      ? ok(n)
      : err(`rpc.${key}: expected a non-negative integer, got ${String(v)}`);
  };
  const conns = int("max_open_connections", rpc.max_open_connections, d.maxOpenConnections);
  if (!conns.ok) return conns;
  const body = int("max_body_bytes", rpc.max_body_bytes, d.maxBodyBytes);
  if (!body.ok) return body;
  let timeout = d.timeoutBroadcastTxCommitMs;
  if (rpc.timeout_broadcast_tx_commit !== undefined) {
    const t =
      typeof rpc.timeout_broadcast_tx_commit === "string" ? parseDuration(rpc.timeout_broadcast_tx_commit) : undefined;
    if (t === undefined || !t.ok)
      return err(
        `rpc.timeout_broadcast_tx_commit: expected a duration, got ${String(rpc.timeout_broadcast_tx_commit)}`,
      );
    timeout = t.value;
  }
  return ok({
    rpc: { laddr, maxOpenConnections: conns.value, maxBodyBytes: body.value, timeoutBroadcastTxCommitMs: timeout },
  });
}
