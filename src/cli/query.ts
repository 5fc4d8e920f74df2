import { create, type DescMessage, type Message } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { stringify } from "yaml";
import { gatewayJson } from "../api/json.js";
import { NODE_JSON } from "../api/node-backend.js";
import { GRPC_CODE_NAMES } from "../api/status.js";
import type { BlockMeta } from "../chain/block-store.js";
import { toHex } from "../core/bytes.js";
import { type RegisteredError, SdkErrors } from "../core/errors.js";
import type { GetBlockByHeightResponse } from "../gen/chain/base/tendermint/v1beta1/query_pb.js";
import { GetBlockByHeightRequestSchema, Service } from "../gen/chain/base/tendermint/v1beta1/query_pb.js";
import type { BlockID } from "../gen/chain/base/tendermint/v1beta1/types_pb.js";
import {
  Query,
  QueryAuthorityResponseSchema,
  QueryModuleVersionsResponseSchema,
} from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { PlanSchema } from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { GovErrors } from "../gov/errors.js";
import { UpgradeErrors } from "../upgrade/errors.js";
import { checkArity, type FlagSpec, type FlagValue, parseFlags } from "./cobra-flags.js";
import { nodeUrl } from "./devnet-common.js";
import { govQueryMain } from "./devnet-query.js";
import { type CallError, grpcTransport, type QueryTransport, restTransport } from "./query-client.js";

/**
 * `chainsim query upgrade plan | applied <name> | module_versions [module] | authority` (docs/node-api.md §6): the
 * node CLI's query commands against a running node (`chainsim serve`), over REST (`--node`, default
 * http://localhost:1317) or gRPC (`--grpc-addr host:port`). Failures print `Error: <message>` on stderr and exit 1
 * (cobra), flag and arity errors included.
 */

export const DEFAULT_NODE = "http://localhost:1317";

const QUERY_FLAGS: readonly FlagSpec[] = [
  { name: "node", kind: "string" },
  { name: "home", kind: "string" },
  { name: "grpc-addr", kind: "string" },
  { name: "height", kind: "int64" },
  { name: "output", shorthand: "o", kind: "string" },
  { name: "help", shorthand: "h", kind: "bool" },
];

export interface QueryIo {
  readonly out: (s: string) => void;
  readonly err: (s: string) => void;
}

/** A command failure: its text (without the `Error: ` prefix). */
class CommandError extends Error {}

const REGISTERED: readonly RegisteredError[] = [
  ...Object.values(SdkErrors),
  ...Object.values(UpgradeErrors),
  ...Object.values(GovErrors),
];

/**
 * The Go `err.Error()` text of an SDK error from its gRPC status message: `codespace <cs> code <n>: <desc>: <wrap>`
 * becomes `<wrap>: <desc>` (the client rebuilds the registered error and wraps it). Other texts are unchanged.
 */
export function goErrorText(message: string): string {
  const m = /^codespace (\S+) code (\d+): /.exec(message);
  if (m === null) return message;
  const reg = REGISTERED.find((r) => r.codespace === m[1] && r.code === Number(m[2]));
  if (reg === undefined) return message;
  const rest = message.slice(m[0].length);
  if (rest === reg.description) return reg.description;
  if (!rest.startsWith(`${reg.description}: `)) return message;
  return `${rest.slice(reg.description.length + 2)}: ${reg.description}`;
}

/** `rpc error: code = <Name> desc = <text>` for a status; transport failures as they are. */
export function callErrorText(e: CallError): string {
  if (e.kind === "transport") return e.message;
  const name = GRPC_CODE_NAMES[e.code] ?? `Code(${e.code})`;
  return `rpc error: code = ${name} desc = ${e.code === 2 ? goErrorText(e.message) : e.message}`;
}

/** `--output text`: YAML like Go's yaml.JSONToYAML (keys sorted, YAML 1.1 quoting, sequences not indented). */
export const jsonToYaml = (json: string): string =>
  stringify(JSON.parse(json), { version: "1.1", sortMapEntries: true, indentSeq: false }).replace(/\n$/, "");

const hexUpper = (b: Uint8Array): string => toHex(b).toUpperCase();

const blockIdOf = (id: BlockID | undefined): BlockMeta["block_id"] => ({
  hash: hexUpper(id?.hash ?? new Uint8Array()),
  parts: { total: id?.partSetHeader?.total ?? 0, hash: hexUpper(id?.partSetHeader?.hash ?? new Uint8Array()) },
});

/** Fixed per-block overhead of a block's size in the simulator's block store (header, commit): size = txs + this. */
export const BLOCK_OVERHEAD_BYTES = 600;

/** The block meta `applied` prints (CometBFT BlockMeta as amino JSON), from a block service response. */
export function blockMetaOf(res: GetBlockByHeightResponse): BlockMeta | undefined {
  const block = res.block;
  const h = block?.header;
  if (block === undefined || h === undefined) return undefined;
  const txs = block.data?.txs ?? [];
  const time =
    h.time === undefined ? "0001-01-01T00:00:00Z" : timestampDate(h.time).toISOString().replace(".000Z", "Z");
  return {
    block_id: blockIdOf(res.blockId),
    block_size: String(txs.reduce((n, t) => n + t.length, 0) + BLOCK_OVERHEAD_BYTES),
    header: {
      version: {
        block: String(h.version?.block ?? 0n),
        ...(h.version === undefined || h.version.app === 0n ? {} : { app: String(h.version.app) }),
      },
      chain_id: h.chainId,
      height: String(h.height),
      time,
      last_block_id: blockIdOf(h.lastBlockId),
      last_commit_hash: hexUpper(h.lastCommitHash),
      data_hash: hexUpper(h.dataHash),
      validators_hash: hexUpper(h.validatorsHash),
      next_validators_hash: hexUpper(h.nextValidatorsHash),
      consensus_hash: hexUpper(h.consensusHash),
      app_hash: hexUpper(h.appHash),
      last_results_hash: hexUpper(h.lastResultsHash),
      evidence_hash: hexUpper(h.evidenceHash),
      proposer_address: hexUpper(h.proposerAddress),
    },
    num_txs: String(txs.length),
  };
}

interface Ctx {
  readonly transport: QueryTransport;
  readonly height: bigint | undefined;
  readonly output: string;
  readonly io: QueryIo;
}

async function must<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: CallError }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new CommandError(callErrorText(r.error));
  return r.value;
}

/** PrintProto: gateway-style JSON (proto names, defaults emitted), or YAML for `--output text`. */
function printProto(c: Ctx, desc: DescMessage, msg: Message): void {
  const json = gatewayJson(desc, msg, NODE_JSON);
  c.io.out(c.output === "text" ? jsonToYaml(json) : json);
}

interface Subcommand {
  readonly use: string;
  readonly aliases: readonly string[];
  readonly short: string;
  readonly arity: { readonly kind: "exact" | "max"; readonly n: number };
  readonly run: (c: Ctx, args: readonly string[]) => Promise<void>;
}

const SUBCOMMANDS: readonly Subcommand[] = [
  {
    use: "plan",
    aliases: [],
    short: "get upgrade plan (if one exists)",
    arity: { kind: "exact", n: 0 },
    async run(c) {
      const res = await must(c.transport.call(Query.method.currentPlan, {}, c.height));
      if (res.plan === undefined) throw new CommandError("no upgrade scheduled");
      printProto(c, PlanSchema, res.plan);
    },
  },
  {
    use: "applied [upgrade-name]",
    aliases: [],
    short: "block header for height at which a completed upgrade was applied",
    arity: { kind: "exact", n: 1 },
    async run(c, args) {
      const res = await must(c.transport.call(Query.method.appliedPlan, { name: args[0]! }, c.height));
      if (res.height === 0n) throw new CommandError("no upgrade found");
      const block = await c.transport.call(
        Service.method.getBlockByHeight,
        create(GetBlockByHeightRequestSchema, { height: res.height }),
        undefined,
      );
      if (!block.ok && block.error.kind === "transport") throw new CommandError(callErrorText(block.error));
      const meta = block.ok ? blockMetaOf(block.value) : undefined;
      if (meta === undefined) throw new CommandError(`no headers returned for height ${res.height}`);
      c.io.out(JSON.stringify(meta, null, 2));
    },
  },
  {
    use: "module_versions [optional module_name]",
    aliases: ["module-versions"],
    short: "get the list of module versions",
    arity: { kind: "max", n: 1 },
    async run(c, args) {
      const res = await must(c.transport.call(Query.method.moduleVersions, { moduleName: args[0] ?? "" }, c.height));
      if (res.moduleVersions.length === 0) throw new CommandError("not found");
      printProto(c, QueryModuleVersionsResponseSchema, res);
    },
  },
  {
    use: "authority",
    aliases: [],
    short: "get the upgrade authority address",
    arity: { kind: "exact", n: 0 },
    async run(c) {
      const res = await must(c.transport.call(Query.method.authority, {}, c.height));
      printProto(c, QueryAuthorityResponseSchema, res);
    },
  },
];

const nameOf = (s: Subcommand): string => s.use.split(" ")[0]!;

/** The `query upgrade` commands by name (the help-tree test walks them). */
export const UPGRADE_QUERY_COMMANDS: readonly string[] = SUBCOMMANDS.map(nameOf);

function usage(path: string, sub?: Subcommand): string {
  if (sub !== undefined) {
    return [
      `Usage:\n  ${path} ${sub.use} [flags]`,
      ...(sub.aliases.length > 0 ? [`\nAliases:\n  ${[nameOf(sub), ...sub.aliases].join(", ")}`] : []),
      `\nFlags:\n      --grpc-addr string   the gRPC endpoint to use for this chain (host:port)\n      --height int         Use a specific height to query state at (this can error if the node is pruning state)\n  -h, --help               help for ${nameOf(sub)}\n      --home string        the node's home: its app.toml api.address is the REST endpoint when --node is not given\n      --node string        REST endpoint of the node (default "${DEFAULT_NODE}")\n  -o, --output string      Output format (text|json) (default "text")`,
    ].join("\n");
  }
  return [
    `Querying commands for the upgrade module\n\nUsage:\n  ${path} [command]\n\nAvailable Commands:`,
    ...SUBCOMMANDS.map((s) => `  ${nameOf(s).padEnd(16)}${s.short}`),
  ].join("\n");
}

/** Flag tokens (and the values of value flags) are skipped when looking for the command words (cobra Find). */
function commandWords(args: readonly string[]): { words: string[]; rest: string[] } {
  const words: string[] = [];
  const rest: string[] = [];
  const valueFlags = new Set(
    QUERY_FLAGS.filter((f) => f.kind !== "bool").flatMap((f) => [
      `--${f.name}`,
      ...(f.shorthand ? [`-${f.shorthand}`] : []),
    ]),
  );
  let done = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (done || a.startsWith("-")) {
      rest.push(a);
      if (!done && valueFlags.has(a) && i + 1 < args.length) rest.push(args[++i]!);
      if (a === "--") done = true;
      continue;
    }
    if (words.length < 2) words.push(a);
    else rest.push(a);
    if (words.length === 2) done = true;
  }
  return { words, rest };
}

/**
 * Runs `chainsim query ...` (argv after `query`). Returns the exit code: 0, or 1 after printing `Error: <msg>`.
 */
export async function queryMain(argv: readonly string[], io: QueryIo): Promise<number> {
  const fail = (msg: string) => {
    io.err(`Error: ${msg}`);
    return 1;
  };
  const { words, rest } = commandWords(argv);
  const [module, subName] = words;
  if (module === undefined) {
    io.out(
      `Querying subcommands\n\nUsage:\n  chainsim query [command]\n\nAvailable Commands:\n  gov         Querying commands for the gov module\n  upgrade     Querying commands for the upgrade module`,
    );
    return 0;
  }
  if (module === "gov") return govQueryMain(argv.slice(argv.indexOf("gov") + 1), io);
  if (module !== "upgrade") return fail(`unknown command "${module}" for "chainsim query"`);
  const path = "chainsim query upgrade";
  if (subName === undefined) {
    io.out(usage(path));
    return 0;
  }
  const sub = SUBCOMMANDS.find((s) => nameOf(s) === subName || s.aliases.includes(subName));
  if (sub === undefined) return fail(`unknown command "${subName}" for "${path}"`);
  const parsed = parseFlags(rest, QUERY_FLAGS);
  if (!parsed.ok) return fail(parsed.error);
  const flags: ReadonlyMap<string, FlagValue> = parsed.value.values;
  if (flags.get("help") === true) {
    io.out(usage(path, sub));
    return 0;
  }
  const arity = checkArity(sub.arity.kind, sub.arity.n, parsed.value.positionals.length);
  if (arity !== undefined) return fail(arity);
  const grpc = flags.get("grpc-addr");
  const node = flags.get("node");
  const home = flags.get("home");
  const restUrl =
    typeof node === "string" ? node : typeof home === "string" && home !== "" ? nodeUrl("", home) : DEFAULT_NODE;
  const transport = typeof grpc === "string" && grpc !== "" ? grpcTransport(grpc) : restTransport(restUrl);
  const height = flags.get("height");
  const ctx: Ctx = {
    transport,
    height: typeof height === "bigint" && height !== 0n ? height : undefined,
    output: (flags.get("output") as string | undefined) ?? "text",
    io,
  };
  try {
    await sub.run(ctx, parsed.value.positionals);
    return 0;
  } catch (e) {
    if (e instanceof CommandError) return fail(e.message);
    return fail(e instanceof Error ? e.message : String(e));
  }
}
