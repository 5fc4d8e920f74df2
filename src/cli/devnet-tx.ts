import { basename, extname } from "node:path";
import { create } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { base64, bech32 } from "@scure/base";
import type { Command } from "commander";
import { stringify } from "yaml";
import { anyToWire } from "../api/wire.js";
import { type Coins, parseCoins } from "../bank/coins.js";
import { govAuthority } from "../core/address.js";
import { namesOf } from "../core/namespace.js";
import { hostResolver } from "../devnet/fetch.js";
import { type KeyRecord, loadKey } from "../devnet/keyring.js";
import { validatePlanInfo } from "../devnet/plan-info.js";
import { STATUS_PATH, TXS_PATH } from "../devnet/rest.js";
import { packAny, signTx } from "../devnet/tx.js";
import { VoteOption } from "../gen/chain/gov/v1/gov_pb.js";
import { MsgDepositSchema, MsgSubmitProposalSchema, MsgVoteSchema } from "../gen/chain/gov/v1/tx_pb.js";
import { MsgCancelUpgradeSchema, MsgSoftwareUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import {
  type DevnetCommand,
  defaultHome,
  Fail,
  GROUP_SUMMARIES,
  guarded,
  homeBech32Prefix,
  homeNamespace,
  type Io,
  nodeUrl,
  registerGroup,
  rest,
} from "./devnet-common.js";
import { type FlagSpec, flagBool, flagInt, flagString, type Parsed } from "./devnet-flags.js";

/**
 * `chainsim tx ...` against a devnet node: builds the message, reads the signer's account number and sequence
 * (`GET /chain/auth/v1beta1/accounts/{address}`), signs a TxRaw with SIGN_MODE_DIRECT with a key of the home's test
 * keyring (`--from NAME`), broadcasts it (`POST /chain/tx/v1beta1/txs`, `BROADCAST_MODE_SYNC`) and waits until it is
 * in a block (deviation: the reference's default `sync` mode returns after CheckTx). Prints the tx response (YAML, or
 * JSON with `--output json`); a rejected or failed transaction prints it too and exits 1 with `Error: <raw_log>`.
 */
const TX_FLAGS: readonly FlagSpec[] = [
  { name: "from", kind: "string" },
  { name: "chain-id", kind: "string" },
  { name: "fees", kind: "string" },
  { name: "gas", kind: "string" },
  { name: "note", kind: "string" },
  { name: "node", kind: "string" },
  { name: "home", kind: "string" },
  { name: "keyring-backend", kind: "string" },
  { name: "yes", kind: "bool", short: "y" },
  { name: "output", kind: "string", short: "o" },
  { name: "timeout", kind: "string" },
];
const GOV_FLAGS: readonly FlagSpec[] = [
  { name: "title", kind: "string", required: true },
  { name: "summary", kind: "string" },
  { name: "metadata", kind: "string" },
  { name: "deposit", kind: "string" },
  { name: "authority", kind: "string" },
];

const homeOf = (p: Parsed) => flagString(p, "home", defaultHome());

const bodyMessage = (body: string): string => {
  try {
    return (JSON.parse(body) as { message?: string }).message ?? body;
  } catch {
    return body;
  }
};

interface TxResponseJson {
  readonly txhash: string;
  readonly code: number;
  readonly raw_log: string;
}

async function broadcast(p: Parsed, io: Io, build: (key: KeyRecord) => Any): Promise<number> {
  const from = flagString(p, "from");
  if (from === "") throw new Fail("--from is required: the name of a key in the test keyring");
  const backend = flagString(p, "keyring-backend", "test");
  if (backend !== "test") throw new Fail(`unsupported keyring backend "${backend}": the devnet uses the test keyring`);
  const home = homeOf(p);
  const key = loadKey(home, from, homeBech32Prefix(home));
  if (!key.ok) throw new Fail(key.error);
  const fees = parseCoins(flagString(p, "fees"));
  if (!fees.ok) throw new Fail(`invalid fees: ${fees.error.message}`);
  const gasText = flagString(p, "gas", "200000");
  if (!/^[0-9]{1,19}$/.test(gasText)) throw new Fail(`invalid gas value "${gasText}": expected a non-negative integer`);
  const timeoutText = flagString(p, "timeout", "30");
  const timeoutMs = /^[0-9]{1,6}$/.test(timeoutText) ? Number(timeoutText) * 1000 : Number.NaN;
  if (Number.isNaN(timeoutMs)) throw new Fail(`invalid timeout "${timeoutText}": expected seconds`);
  const node = nodeUrl(flagString(p, "node"), home);
  const ns = homeNamespace(home);
  const names = namesOf(ns);
  const route = (chainPath: string) => node + names.fromChain(chainPath);
  const msg = anyToWire(build(key.value), ns);

  let chainId = flagString(p, "chain-id");
  if (chainId === "") {
    const s = await rest("GET", route(STATUS_PATH));
    if (!s.ok) throw new Fail(s.error);
    chainId = (JSON.parse(s.value.body) as { chain_id: string }).chain_id;
  }
  const acc = await rest("GET", route(`/chain/auth/v1beta1/accounts/${key.value.address}`));
  if (!acc.ok) throw new Fail(acc.error);
  if (acc.value.status !== 200) throw new Fail(bodyMessage(acc.value.body));
  const account = (JSON.parse(acc.value.body) as { account: { account_number: string; sequence: string } }).account;
  const tx = signTx(key.value, {
    chainId,
    accountNumber: BigInt(account.account_number),
    sequence: BigInt(account.sequence),
    msg,
    fee: fees.value,
    gas: BigInt(gasText),
    memo: flagString(p, "note"),
    namespace: ns,
  });
  const sent = await rest("POST", route(TXS_PATH), {
    body: JSON.stringify({ tx_bytes: base64.encode(tx), mode: "BROADCAST_MODE_SYNC" }),
  });
  if (!sent.ok) throw new Fail(sent.error);
  if (sent.value.status !== 200) throw new Fail(bodyMessage(sent.value.body));
  let res = (JSON.parse(sent.value.body) as { tx_response: TxResponseJson }).tx_response;
  if (res.code === 0) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const got = await rest("GET", route(`${TXS_PATH}/${res.txhash}`));
      if (got.ok && got.value.status === 200) {
        const { tx: _tx, ...txResponse } = (
          JSON.parse(got.value.body) as { tx_response: TxResponseJson & { tx?: unknown } }
        ).tx_response;
        res = txResponse;
        break;
      }
      if (Date.now() > deadline) throw new Fail(`timed out waiting for tx ${res.txhash} to be included in a block`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  const json = JSON.stringify(res);
  io.out(
    flagString(p, "output", "text") === "json"
      ? json
      : stringify(res, { version: "1.1", sortMapEntries: true }).trimEnd(),
  );
  if (res.code !== 0) throw new Fail(res.raw_log);
  return 0;
}

/** --deposit (gov flags), as the reference reads it first. */
function depositOf(p: Parsed): Coins {
  const d = parseCoins(flagString(p, "deposit"));
  if (!d.ok) throw new Fail(`invalid deposit: ${d.error.message}`);
  return d.value;
}

/**
 * The authority checks of docs/node-api.md §6.3 (`sdk.AccAddressFromBech32` with the chain's `prefix`); undefined
 * when valid.
 */
export function bech32AuthorityError(a: string, prefix: string): string | undefined {
  if (a.trim() === "") return "empty address string is not allowed";
  let hrp: string;
  try {
    hrp = bech32.decode(a as `${string}1${string}`).prefix;
  } catch (e) {
    return `decoding bech32 failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (hrp !== prefix)
    return `hrp does not match bech32 prefix: expected '${prefix}' got '${hrp}': internal logic error`;
  return undefined;
}

/** `--authority`, or the gov module account of the home's chain. */
function authorityOf(p: Parsed): string {
  const a = flagString(p, "authority");
  const prefix = homeBech32Prefix(homeOf(p));
  if (a === "") return govAuthority(prefix);
  const bad = bech32AuthorityError(a, prefix);
  if (bad !== undefined) throw new Fail(`invalid authority address: ${bad}`);
  return a;
}

const protoCoins = (coins: Coins) => coins.map((c) => ({ denom: c.denom, amount: c.amount.toString() }));

const proposal = (p: Parsed, key: KeyRecord, deposit: Coins, inner: Any): Any =>
  packAny(
    MsgSubmitProposalSchema,
    create(MsgSubmitProposalSchema, {
      messages: [inner],
      initialDeposit: protoCoins(deposit),
      proposer: key.address,
      metadata: flagString(p, "metadata"),
      title: flagString(p, "title"),
      summary: flagString(p, "summary"),
      expedited: false,
    }),
  );

function daemonName(p: Parsed): string {
  if (p.changed.has("daemon-name")) return flagString(p, "daemon-name");
  const env = process.env.DAEMON_NAME;
  if (env !== undefined && env !== "") return env;
  const exe = basename(process.argv[1] ?? "chainsim");
  return exe.slice(0, exe.length - extname(exe).length);
}

export const softwareUpgradeCommand: DevnetCommand = {
  path: ["upgrade", "software-upgrade"],
  summary: "Submit a software upgrade proposal",
  usage:
    "tx upgrade software-upgrade <name> --title T [--summary S] [--deposit 10000000stake] --upgrade-height H --upgrade-info INFO [--no-validate] [--no-checksum-required] [--daemon-name D] --from KEY [--node URL] [--home DIR]",
  spec: {
    args: { exact: 1 },
    flags: [
      ...GOV_FLAGS,
      { name: "upgrade-height", kind: "int64" },
      { name: "upgrade-info", kind: "string" },
      { name: "no-validate", kind: "bool" },
      { name: "no-checksum-required", kind: "bool" },
      { name: "daemon-name", kind: "string" },
      ...TX_FLAGS,
    ],
  },
  run: guarded(async (p, io) => {
    const deposit = depositOf(p);
    const plan = { name: p.args[0]!, height: flagInt(p, "upgrade-height"), info: flagString(p, "upgrade-info") };
    if (!flagBool(p, "no-validate")) {
      const v = await validatePlanInfo(plan.info, {
        enforceChecksum: !flagBool(p, "no-checksum-required"),
        daemonName: daemonName(p),
        resolver: hostResolver(),
      });
      if (!v.ok) throw new Fail(v.error);
    }
    const authority = authorityOf(p);
    const inner = packAny(MsgSoftwareUpgradeSchema, create(MsgSoftwareUpgradeSchema, { authority, plan }));
    return broadcast(p, io, (key) => proposal(p, key, deposit, inner));
  }),
};

export const cancelUpgradeCommand: DevnetCommand = {
  path: ["upgrade", "cancel-software-upgrade"],
  summary: "Cancel the current software upgrade proposal",
  usage:
    "tx upgrade cancel-software-upgrade --title T [--summary S] [--deposit 10000000stake] --from KEY [--node URL] [--home DIR]",
  spec: { args: { exact: 0 }, flags: [...GOV_FLAGS, ...TX_FLAGS] },
  run: guarded(async (p, io) => {
    const deposit = depositOf(p);
    const authority = authorityOf(p);
    const inner = packAny(MsgCancelUpgradeSchema, create(MsgCancelUpgradeSchema, { authority }));
    return broadcast(p, io, (key) => proposal(p, key, deposit, inner));
  }),
};

const VOTE_OPTION: Record<string, VoteOption> = {
  yes: VoteOption.YES,
  no: VoteOption.NO,
  abstain: VoteOption.ABSTAIN,
  no_with_veto: VoteOption.NO_WITH_VETO,
  nowithveto: VoteOption.NO_WITH_VETO,
};

function proposalId(text: string, kind: "int" | "uint"): bigint {
  if (!/^[0-9]{1,20}$/.test(text) || BigInt(text) > 0xffffffffffffffffn)
    throw new Fail(`proposal-id ${text} not a valid ${kind}, please input a valid proposal-id`);
  return BigInt(text);
}

export const voteCommand: DevnetCommand = {
  path: ["gov", "vote"],
  summary: "Vote for an active proposal, options: yes/no/no_with_veto/abstain",
  usage: "tx gov vote <proposal-id> <option> --from KEY [--metadata M] [--node URL] [--home DIR]",
  spec: { args: { exact: 2 }, flags: [{ name: "metadata", kind: "string" }, ...TX_FLAGS] },
  run: guarded(async (p, io) => {
    const id = proposalId(p.args[0]!, "int");
    const option = VOTE_OPTION[p.args[1]!.toLowerCase()];
    if (option === undefined) throw new Fail(`'${p.args[1]}' is not a valid vote option`);
    return broadcast(p, io, (key) =>
      packAny(
        MsgVoteSchema,
        create(MsgVoteSchema, { proposalId: id, voter: key.address, option, metadata: flagString(p, "metadata") }),
      ),
    );
  }),
};

export const depositCommand: DevnetCommand = {
  path: ["gov", "deposit"],
  summary: "Deposit tokens for an active proposal",
  usage: "tx gov deposit <proposal-id> <amount> --from KEY [--node URL] [--home DIR]",
  spec: { args: { exact: 2 }, flags: TX_FLAGS },
  run: guarded(async (p, io) => {
    const id = proposalId(p.args[0]!, "uint");
    const amount = parseCoins(p.args[1]!);
    if (!amount.ok) throw new Fail(amount.error.message);
    return broadcast(p, io, (key) =>
      packAny(
        MsgDepositSchema,
        create(MsgDepositSchema, { proposalId: id, depositor: key.address, amount: protoCoins(amount.value) }),
      ),
    );
  }),
};

export const TX_COMMANDS: readonly DevnetCommand[] = [
  softwareUpgradeCommand,
  cancelUpgradeCommand,
  voteCommand,
  depositCommand,
];

export function registerDevnetTx(program: Command, io: Io, setExit: (code: number) => void): void {
  registerGroup(program, "tx", [], GROUP_SUMMARIES.tx!, TX_COMMANDS, io, setExit);
}
