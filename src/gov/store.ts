import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { decodeAddress } from "../core/address.js";
import { type UnixMs, unixMs } from "../core/brand.js";
import { be64, concat, prefixEnd, readBe64, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import type { KVStore } from "../core/kv.js";
import {
  type Deposit,
  DepositSchema,
  type Params,
  ParamsSchema,
  type Proposal,
  ProposalSchema,
  type Vote,
  VoteSchema,
} from "../gen/chain/gov/v1/gov_pb.js";
import { prefixIterator } from "../store/prefix.js";

/**
 * The gov store (`gov`), laid out with the reference's prefixes:
 * `0x00|id` → Proposal, `0x01|end|id` → active queue, `0x02|end|id` → inactive queue, `0x03` → next proposal id,
 * `0x10|id|addr` → Deposit, `0x20|id|addr` → Vote, `0x30` → Params. Ids and times (ms) are 8-byte big-endian,
 * so queue iteration is in (time, id) order. Values are protobuf binary.
 */
export const GOV_STORE = "gov";

const PROPOSALS = 0x00;
const ACTIVE_QUEUE = 0x01;
const INACTIVE_QUEUE = 0x02;
const NEXT_ID_KEY = Uint8Array.of(0x03);
const DEPOSITS = 0x10;
const VOTES = 0x20;
const PARAMS_KEY = Uint8Array.of(0x30);

export type Queue = "active" | "inactive";

const byte = (b: number): Uint8Array => Uint8Array.of(b);
const proposalKey = (id: bigint) => concat(byte(PROPOSALS), be64(id));
const queuePrefix = (q: Queue) => byte(q === "active" ? ACTIVE_QUEUE : INACTIVE_QUEUE);
const queueKey = (q: Queue, time: UnixMs, id: bigint) => concat(queuePrefix(q), be64(time), be64(id));
const perProposalPrefix = (kind: number, id: bigint) => concat(byte(kind), be64(id));
/** Address part of deposit/vote keys; an undecodable address (never stored by handlers) falls back to its text. */
const addrKey = (address: string): Uint8Array => decodeAddress(address) ?? utf8(address);

const store = (ctx: Ctx): KVStore => ctx.kv(GOV_STORE);

/** Converts a stored timestamp; absent timestamps are a caller bug. */
export const msOf = (t: Proposal["submitTime"]): UnixMs => unixMs(t === undefined ? 0 : timestampMs(t));

export function getProposal(ctx: Ctx, id: bigint): Proposal | undefined {
  const v = store(ctx).get(proposalKey(id));
  return v === undefined ? undefined : fromBinary(ProposalSchema, v);
}

export function setProposal(ctx: Ctx, p: Proposal): void {
  store(ctx).set(proposalKey(p.id), toBinary(ProposalSchema, p));
}

/** Deletes the proposal and its queue entries (not its deposits or votes). */
export function deleteProposal(ctx: Ctx, p: Proposal): void {
  const s = store(ctx);
  if (p.depositEndTime !== undefined) s.delete(queueKey("inactive", msOf(p.depositEndTime), p.id));
  if (p.votingEndTime !== undefined) s.delete(queueKey("active", msOf(p.votingEndTime), p.id));
  s.delete(proposalKey(p.id));
}

export function allProposals(ctx: Ctx): Proposal[] {
  const out: Proposal[] = [];
  for (const [, v] of prefixIterator(store(ctx), byte(PROPOSALS))) out.push(fromBinary(ProposalSchema, v));
  return out;
}

/** Takes the next proposal id (the first is 1). */
export function takeProposalId(ctx: Ctx): bigint {
  const s = store(ctx);
  const v = s.get(NEXT_ID_KEY);
  const id = v === undefined ? 1n : readBe64(v);
  s.set(NEXT_ID_KEY, be64(id + 1n));
  return id;
}

export function queueInsert(ctx: Ctx, q: Queue, time: UnixMs, id: bigint): void {
  store(ctx).set(queueKey(q, time, id), be64(id));
}

export function queueRemove(ctx: Ctx, q: Queue, time: UnixMs, id: bigint): void {
  store(ctx).delete(queueKey(q, time, id));
}

/** Queue entries with time ≤ `until` (inclusive), in (time, id) order, read before any of them is processed. */
export function queueDue(ctx: Ctx, q: Queue, until: UnixMs): { readonly time: UnixMs; readonly id: bigint }[] {
  const prefix = queuePrefix(q);
  const end = concat(prefix, be64(BigInt(until) + 1n));
  const out: { time: UnixMs; id: bigint }[] = [];
  for (const [k] of store(ctx).iterator(prefix, end)) {
    out.push({ time: unixMs(Number(readBe64(k, 1))), id: readBe64(k, 9) });
  }
  return out;
}

/** The first queue entry in (time, id) order, whatever its time; undefined when the queue is empty. */
export function queueFirst(ctx: Ctx, q: Queue): { readonly time: UnixMs; readonly id: bigint } | undefined {
  const prefix = queuePrefix(q);
  for (const [k] of store(ctx).iterator(prefix, prefixEnd(prefix))) {
    return { time: unixMs(Number(readBe64(k, 1))), id: readBe64(k, 9) };
  }
  return undefined;
}

export function getDeposit(ctx: Ctx, id: bigint, depositor: string): Deposit | undefined {
  const v = store(ctx).get(concat(perProposalPrefix(DEPOSITS, id), addrKey(depositor)));
  return v === undefined ? undefined : fromBinary(DepositSchema, v);
}

export function setDeposit(ctx: Ctx, d: Deposit): void {
  store(ctx).set(concat(perProposalPrefix(DEPOSITS, d.proposalId), addrKey(d.depositor)), toBinary(DepositSchema, d));
}

export function deleteDeposit(ctx: Ctx, d: Deposit): void {
  store(ctx).delete(concat(perProposalPrefix(DEPOSITS, d.proposalId), addrKey(d.depositor)));
}

/** Deposits of a proposal in depositor-address byte order. */
export function depositsOf(ctx: Ctx, id: bigint): Deposit[] {
  const out: Deposit[] = [];
  for (const [, v] of prefixIterator(store(ctx), perProposalPrefix(DEPOSITS, id))) {
    out.push(fromBinary(DepositSchema, v));
  }
  return out;
}

export function getVote(ctx: Ctx, id: bigint, voter: string): Vote | undefined {
  const v = store(ctx).get(concat(perProposalPrefix(VOTES, id), addrKey(voter)));
  return v === undefined ? undefined : fromBinary(VoteSchema, v);
}

export function setVote(ctx: Ctx, v: Vote): void {
  store(ctx).set(concat(perProposalPrefix(VOTES, v.proposalId), addrKey(v.voter)), toBinary(VoteSchema, v));
}

/** Votes of a proposal in voter-address byte order. */
export function votesOf(ctx: Ctx, id: bigint): Vote[] {
  const out: Vote[] = [];
  for (const [, v] of prefixIterator(store(ctx), perProposalPrefix(VOTES, id))) out.push(fromBinary(VoteSchema, v));
  return out;
}

export function deleteVotes(ctx: Ctx, id: bigint): void {
  const s = store(ctx);
  const keys = [...prefixIterator(s, perProposalPrefix(VOTES, id))].map(([k]) => k);
  for (const k of keys) s.delete(k);
}

export function getStoredParams(ctx: Ctx): Params | undefined {
  const v = getStoredParamsBytes(ctx);
  return v === undefined ? undefined : fromBinary(ParamsSchema, v);
}

/** The stored params record as bytes (never to be mutated); undefined when absent. */
export function getStoredParamsBytes(ctx: Ctx): Uint8Array | undefined {
  return store(ctx).get(PARAMS_KEY);
}

export function setStoredParams(ctx: Ctx, p: Params): void {
  store(ctx).set(PARAMS_KEY, toBinary(ParamsSchema, p));
}
