import { stringify } from "yaml";
import { GRPC_CODE_NAMES } from "../api/status.js";
import { type DevnetCommand, defaultHome, type Io, nodeUrl, rest, runCommand } from "./devnet-common.js";
import { flagInt, flagString } from "./devnet-flags.js";

/**
 * `chainsim query gov proposal <id>` against a devnet node: GET /chain/gov/v1/proposals/{id}; prints the response
 * (YAML, or JSON with `--output json`). Errors print as the reference client's: `rpc error: code = <Name> desc = <msg>`.
 * Entry point for the `query` dispatcher (src/cli/query.ts owns `query`; it routes `gov` here).
 */

export const govProposalCommand: DevnetCommand = {
  path: ["proposal"],
  summary: "Query details of a single proposal",
  usage: "query gov proposal <proposal-id> [--node URL] [--home DIR] [--height H] [--output text|json]",
  spec: {
    args: { exact: 1 },
    flags: [
      { name: "node", kind: "string" },
      { name: "home", kind: "string" },
      { name: "height", kind: "int64" },
      { name: "output", kind: "string", short: "o" },
    ],
  },
  run: async (p, io) => {
    const id = p.args[0]!;
    if (!/^[0-9]{1,20}$/.test(id)) {
      io.err(`Error: proposal-id ${id} not a valid uint, please input a valid proposal-id`);
      return 1;
    }
    const node = nodeUrl(flagString(p, "node"), flagString(p, "home", defaultHome()));
    const height = flagInt(p, "height");
    const r = await rest("GET", `${node}/chain/gov/v1/proposals/${id}`, {
      headers: height === 0n ? {} : { "x-chain-block-height": height.toString() },
    });
    if (!r.ok) {
      io.err(`Error: ${r.error}`);
      return 1;
    }
    const body = JSON.parse(r.value.body) as { code?: number; message?: string };
    if (r.value.status !== 200) {
      io.err(`Error: rpc error: code = ${GRPC_CODE_NAMES[body.code ?? 2] ?? "Unknown"} desc = ${body.message ?? ""}`);
      return 1;
    }
    io.out(
      flagString(p, "output", "text") === "json"
        ? r.value.body
        : stringify(body, { version: "1.1", sortMapEntries: true }).trimEnd(),
    );
    return 0;
  },
};

/** `chainsim query gov --help`: the gov query group and its commands. */
export const GOV_QUERY_HELP = [
  "Querying commands for the gov module",
  "",
  "Usage:",
  "  chainsim query gov [command]",
  "",
  "Available Commands:",
  `  proposal    ${govProposalCommand.summary}`,
  "",
  'Use "chainsim query gov [command] --help" for more information about a command.',
].join("\n");

/** `query gov <sub> ...` (argv after `gov`); alone or with `--help`, the group's help. */
export async function govQueryMain(argv: readonly string[], io: Io): Promise<number> {
  if (argv.length === 0 || argv.every((a) => a === "--help" || a === "-h")) {
    io.out(GOV_QUERY_HELP);
    return 0;
  }
  if (argv[0] !== "proposal") {
    io.err(`Error: unknown command "${argv[0]}" for "chainsim query gov"`);
    return 1;
  }
  return runCommand(govProposalCommand, argv.slice(1), io);
}
