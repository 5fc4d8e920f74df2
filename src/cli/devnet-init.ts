import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { initNode } from "../devnet/init.js";
import { type DevnetCommand, defaultHome, type Io, registerGroup } from "./devnet-common.js";
import { bech32PrefixFlag, flagBool, flagInt, flagString, namespaceFlag } from "./devnet-flags.js";

/** `chainsim init`: writes a devnet home (devnet/init.ts) and prints what it wrote, gov periods first. */
export const initCommand: DevnetCommand = {
  path: [],
  summary: "Initialize a devnet home: app.toml, genesis (short gov periods), binaries and a test keyring",
  usage:
    "init --home DIR [--chain-id ID] [--validators N] [--binaries FILE] [--voting-period 20s] [--deposit-period 20s] [--minimum-gas-prices 0stake] [--api-address tcp://127.0.0.1:1317] [--grpc-address 127.0.0.1:9090] [--rpc-address tcp://127.0.0.1:26657] [--key-seed TEXT] [--namespace chain|cosmos] [--bech32-prefix HRP] [-o|--overwrite] [--output text|json]",
  spec: {
    args: { exact: 0 },
    flags: [
      { name: "home", kind: "string" },
      { name: "chain-id", kind: "string" },
      { name: "validators", kind: "int64" },
      { name: "binaries", kind: "string" },
      { name: "voting-period", kind: "string" },
      { name: "deposit-period", kind: "string" },
      { name: "minimum-gas-prices", kind: "string" },
      { name: "api-address", kind: "string" },
      { name: "grpc-address", kind: "string" },
      { name: "rpc-address", kind: "string" },
      { name: "key-seed", kind: "string" },
      { name: "namespace", kind: "string" },
      { name: "bech32-prefix", kind: "string" },
      // `-o` is --overwrite, as in the reference's `init`; the output format has the long name only.
      { name: "overwrite", kind: "bool", short: "o" },
      { name: "output", kind: "string" },
    ],
  },
  run: async (p, io) => {
    const format = flagString(p, "output", "text");
    if (format !== "text" && format !== "json") {
      io.err(`Error: invalid argument "${format}" for "--output" flag: expected text or json`);
      return 1;
    }
    const binariesPath = flagString(p, "binaries");
    let binaries: { path: string; text: string } | undefined;
    if (binariesPath !== "") {
      try {
        binaries = { path: binariesPath, text: readFileSync(binariesPath, "utf8") };
      } catch (e) {
        io.err(`Error: ${e instanceof Error ? e.message : String(e)}`);
        return 1;
      }
    }
    const opt = (name: string) => (p.changed.has(name) ? flagString(p, name) : undefined);
    const votingPeriod = opt("voting-period");
    const depositPeriod = opt("deposit-period");
    const minimumGasPrices = opt("minimum-gas-prices");
    const apiAddress = opt("api-address");
    const grpcAddress = opt("grpc-address");
    const rpcAddress = opt("rpc-address");
    const keySeed = opt("key-seed");
    const namespace = namespaceFlag(p);
    if (!namespace.ok) {
      io.err(`Error: ${namespace.error}`);
      return 1;
    }
    const prefix = bech32PrefixFlag(p);
    if (!prefix.ok) {
      io.err(`Error: ${prefix.error}`);
      return 1;
    }
    const r = await initNode({
      home: flagString(p, "home", defaultHome()),
      chainId: flagString(p, "chain-id", "chainsim-devnet-1"),
      validators: Number(flagInt(p, "validators", 1n)),
      overwrite: flagBool(p, "overwrite"),
      ...(binaries === undefined ? {} : { binaries }),
      ...(votingPeriod === undefined ? {} : { votingPeriod }),
      ...(depositPeriod === undefined ? {} : { depositPeriod }),
      ...(minimumGasPrices === undefined ? {} : { minimumGasPrices }),
      ...(apiAddress === undefined ? {} : { apiAddress }),
      ...(grpcAddress === undefined ? {} : { grpcAddress }),
      ...(rpcAddress === undefined ? {} : { rpcAddress }),
      ...(keySeed === undefined ? {} : { keySeed }),
      ...(namespace.value === undefined ? {} : { namespace: namespace.value }),
      ...(prefix.value === undefined ? {} : { bech32Prefix: prefix.value }),
    });
    if (!r.ok) {
      io.err(`Error: ${r.error}`);
      return 1;
    }
    const g = r.value.gov;
    if (format === "json") {
      io.out(
        JSON.stringify({
          chain_id: r.value.chainId,
          home: r.value.home,
          // proto JSON's snake_case, as every node-style command's JSON (the scenario keys are camelCase)
          gov: Object.fromEntries(
            Object.entries(g).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v]),
          ),
          keys: r.value.keys.map((k) => ({ name: k.name, address: k.address })),
          files: r.value.files,
        }),
      );
      return 0;
    }
    io.out(`initialized devnet "${r.value.chainId}" in ${r.value.home}`);
    io.out(
      `governance (devnet periods, edit config/genesis.json to change): deposit period ${g.maxDepositPeriod}, voting period ${g.votingPeriod}, expedited voting ${g.expeditedVotingPeriod}, min deposit ${g.minDeposit}`,
    );
    io.out("keys (keyring-test):");
    for (const k of r.value.keys) io.out(`  ${k.name.padEnd(8)} ${k.address}`);
    io.out("files:");
    for (const f of r.value.files) io.out(`  ${f}`);
    return 0;
  },
};

export function registerDevnetInit(program: Command, io: Io, setExit: (code: number) => void): void {
  registerGroup(program, "init", [], initCommand.summary, [initCommand], io, setExit);
}
