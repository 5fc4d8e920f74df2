import { create } from "@bufbuild/protobuf";
import { type Any, AnySchema } from "@bufbuild/protobuf/wkt";
import { StoreCtx } from "../../src/app/context.js";
import { type Coins, coinsToProto, parseCoins } from "../../src/bank/coins.js";
import { BankKeeper } from "../../src/bank/keeper.js";
import { addressOfName, govAuthority } from "../../src/core/address.js";
import { height, unixMs } from "../../src/core/brand.js";
import { fromUtf8, utf8 } from "../../src/core/bytes.js";
import type { Ctx, Event, LogLine } from "../../src/core/context.js";
import { type ChainError, err, ok, plain, type Result, SdkErrors, wrap } from "../../src/core/errors.js";
import type { Params } from "../../src/gen/chain/gov/v1/gov_pb.js";
import { type MsgSubmitProposal, MsgSubmitProposalSchema } from "../../src/gen/chain/gov/v1/tx_pb.js";
import { GovKeeper } from "../../src/gov/keeper.js";
import { defaultParams } from "../../src/gov/params.js";
import type { AnyMsg, BondedValidator, EndBlockSummary, GovConfig, MsgFacts, MsgRouter } from "../../src/gov/types.js";
import { MemMultiStore } from "../../src/store/mem-multistore.js";

/**
 * Test harness for the gov and bank keepers: a MemMultiStore with the `gov` and `bank` stores, a settable block
 * header, a fake staking view and a fake message router. Test messages carry JSON bodies:
 * - `/test.v1.MsgSet {signer, key, value}` writes a probe entry (and emits `probe_set`),
 * - `/test.v1.MsgRequire {signer, key, value}` fails unless the probe entry holds `value`,
 * - `/test.v1.MsgFail {signer, message}` fails with `<message>: invalid request`,
 * - `/test.v1.MsgPanic {signer}` throws, `/test.v1.MsgInvalid {signer}` fails ValidateBasic,
 * - `/test.v1.MsgTwoSigners {signer}` has two signers, `/test.v1.MsgNoRoute` has no route at all.
 * Probe entries live in the `bank` store under `probe/<key>` (disjoint from the bank's own prefixes).
 */
export const T0 = unixMs(1_700_000_000_000);
export const DAY = 86_400_000;

export const alice = addressOfName("alice");
export const bob = addressOfName("bob");
export const carol = addressOfName("carol");
export const val1 = addressOfName("val1");
export const val2 = addressOfName("val2");
export const val3 = addressOfName("val3");

const PROBE = "probe/";

export function testMsg(typeUrl: string, body: Record<string, unknown> = {}): Any {
  return create(AnySchema, { typeUrl, value: utf8(JSON.stringify({ signer: govAuthority(), ...body })) });
}

export const setMsg = (key: string, value: string): Any => testMsg("/test.v1.MsgSet", { key, value });
export const requireMsg = (key: string, value: string): Any => testMsg("/test.v1.MsgRequire", { key, value });
export const failMsg = (message: string): Any => testMsg("/test.v1.MsgFail", { message });

export function readProbe(ctx: Ctx, key: string): string | undefined {
  const v = ctx.kv("bank").get(utf8(PROBE + key));
  return v === undefined ? undefined : fromUtf8(v);
}

const KNOWN = new Set([
  "/test.v1.MsgSet",
  "/test.v1.MsgRequire",
  "/test.v1.MsgFail",
  "/test.v1.MsgPanic",
  "/test.v1.MsgInvalid",
  "/test.v1.MsgTwoSigners",
]);

interface TestBody {
  readonly signer?: string;
  readonly key?: string;
  readonly value?: string;
  readonly message?: string;
}

function body(msg: AnyMsg): TestBody | undefined {
  try {
    return JSON.parse(fromUtf8(msg.value)) as TestBody;
  } catch {
    return undefined;
  }
}

export class FakeRouter implements MsgRouter {
  /** Type urls routed, in call order (to observe execution). */
  readonly calls: string[] = [];
  /** Type urls whose handler is gone (as after a binary change); `route` returns undefined for them. */
  readonly unrouted = new Set<string>();

  inspect(msg: AnyMsg): Result<MsgFacts, ChainError> | undefined {
    if (!KNOWN.has(msg.typeUrl)) return undefined;
    const b = body(msg);
    if (b === undefined) return err(plain(`unable to decode ${msg.typeUrl}`));
    const signer = b.signer ?? "";
    if (msg.typeUrl === "/test.v1.MsgTwoSigners") return ok({ signers: [signer, signer] });
    if (msg.typeUrl === "/test.v1.MsgInvalid") {
      return ok({ signers: [signer], validateBasicError: wrap(SdkErrors.ErrInvalidRequest, "bad field") });
    }
    return ok({ signers: [signer] });
  }

  route(ctx: Ctx, msg: AnyMsg): Result<void, ChainError> | undefined {
    if (!KNOWN.has(msg.typeUrl) || this.unrouted.has(msg.typeUrl)) return undefined;
    this.calls.push(msg.typeUrl);
    const b = body(msg) ?? {};
    switch (msg.typeUrl) {
      case "/test.v1.MsgSet":
        ctx.kv("bank").set(utf8(PROBE + (b.key ?? "")), utf8(b.value ?? ""));
        ctx.emit({ type: "probe_set", attributes: [{ key: "key", value: b.key ?? "" }] });
        return ok(undefined);
      case "/test.v1.MsgRequire": {
        const have = readProbe(ctx, b.key ?? "");
        return have === b.value ? ok(undefined) : err(plain(`probe ${b.key} is ${have ?? "unset"}`));
      }
      case "/test.v1.MsgFail":
        return err(wrap(SdkErrors.ErrInvalidRequest, b.message ?? ""));
      case "/test.v1.MsgPanic":
        throw new Error("boom");
      default:
        return ok(undefined);
    }
  }
}

export interface TxOutcome<T> {
  readonly result: Result<T, ChainError>;
  readonly events: readonly Event[];
}

export interface BlockOutcome {
  readonly result: Result<EndBlockSummary, ChainError>;
  readonly events: readonly Event[];
  readonly logs: readonly LogLine[];
}

/** A single-node chain for keeper tests; time and height move only through `advance`/`setTime`. */
export class TestChain {
  readonly ms = new MemMultiStore(["gov", "bank"]);
  readonly bank = new BankKeeper();
  readonly router = new FakeRouter();
  validators: BondedValidator[];
  readonly gov: GovKeeper;
  #height = 1;
  #time = T0;

  constructor(options: { params?: Params; config?: Partial<GovConfig>; validators?: BondedValidator[] } = {}) {
    this.validators = options.validators ?? [
      { operator: val1, tokens: 600n },
      { operator: val2, tokens: 300n },
      { operator: val3, tokens: 100n },
    ];
    this.gov = new GovKeeper({
      bank: this.bank,
      staking: { bondedValidators: () => this.validators },
      router: this.router,
      ...(options.config === undefined ? {} : { config: options.config }),
    });
    const init = this.gov.initGenesis(this.ctx(), options.params ?? defaultParams());
    if (!init.ok) throw new Error(init.error.message);
    for (const who of [alice, bob, carol, val1, val2, val3]) this.fund(who, "1000000000stake,1000000000atom");
  }

  get time() {
    return this.#time;
  }

  /** A fresh context for the current block header, writing straight into the stores. */
  ctx(): StoreCtx {
    return new StoreCtx(this.ms, {
      chainId: "test-chain",
      height: height(this.#height),
      time: this.#time,
      appVersion: 0n,
    });
  }

  /** Next block, `ms` later. */
  advance(ms: number): void {
    this.#height += 1;
    this.#time = unixMs(this.#time + ms);
  }

  fund(address: string, coins: string): void {
    const parsed = parseCoins(coins);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const r = this.bank.mint(this.ctx(), address, parsed.value);
    if (!r.ok) throw new Error("fund failed");
  }

  /** Runs one transaction in a branch: written on success, dropped on error (as the engine does). */
  tx<T>(fn: (ctx: Ctx) => Result<T, ChainError>): TxOutcome<T> {
    const outer = this.ctx();
    const branch = outer.branch();
    const result = fn(branch.ctx);
    if (result.ok) branch.write();
    return { result, events: outer.events };
  }

  endBlock(): BlockOutcome {
    const c = this.ctx();
    const result = this.gov.endBlocker(c);
    return { result, events: c.events, logs: c.logs };
  }

  submit(
    fields: {
      messages?: Any[];
      deposit?: string;
      proposer?: string;
      title?: string;
      summary?: string;
      metadata?: string;
      expedited?: boolean;
    } = {},
  ): TxOutcome<bigint> {
    const msg = submitMsg(fields);
    return this.tx((ctx) => {
      const r = this.gov.submitProposal(ctx, msg);
      return r.ok ? ok(r.value.proposalId) : r;
    });
  }

  /** Submits a proposal that enters voting at once; returns its id. */
  submitActive(fields: Parameters<TestChain["submit"]>[0] = {}): bigint {
    const r = this.submit({ deposit: fields.expedited === true ? "50000000stake" : "10000000stake", ...fields });
    if (!r.result.ok) throw new Error(JSON.stringify(r.result.error));
    return r.result.value;
  }

  balance(address: string, denom = "stake"): bigint {
    return this.bank.balance(this.ctx(), address, denom);
  }
}

export function submitMsg(fields: {
  messages?: Any[];
  deposit?: string;
  proposer?: string;
  title?: string;
  summary?: string;
  metadata?: string;
  expedited?: boolean;
}): MsgSubmitProposal {
  const deposit = parseCoins(fields.deposit ?? "10000000stake");
  const coins: Coins = deposit.ok ? deposit.value : [];
  return create(MsgSubmitProposalSchema, {
    messages: fields.messages ?? [setMsg("k", "v")],
    initialDeposit: coinsToProto(coins),
    proposer: fields.proposer ?? alice,
    metadata: fields.metadata ?? "",
    title: fields.title ?? "Title",
    summary: fields.summary ?? "Summary",
    expedited: fields.expedited ?? false,
  });
}

/** Attributes of an event as [key, value] pairs. */
export const attrs = (e: Event): [string, string][] => e.attributes.map((a) => [a.key, a.value]);
