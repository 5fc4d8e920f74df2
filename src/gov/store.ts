import { timestampMs } from "@bufbuild/protobuf/wkt";
import { type UnixMs, unixMs } from "../core/brand.js";
import { be64, prefixEnd, readBe64, utf8 } from "../core/bytes.js";
import type { Ctx } from "../core/context.js";
import type { KVStore } from "../core/kv.js";
import { decodeMessage } from "../core/proto-decode.js";
import { encodeMessage } from "../core/proto-encode.js";
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
import { anyPrefixBytes } from "./address-check.js";

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

/** Writes `n` (an id or a time: 0 <= n < 2^64) as 8 big-endian bytes at `at` (be64 without its own array). */
function putBe64(out: Uint8Array, at: number, big: bigint | number): void {
  // Ids are bigints, nearly always small: as numbers, they take the two-halves path, without a BigInt or a DataView.
  const n = typeof big === "bigint" && big >= 0n && big <= MAX_SAFE ? Number(big) : big;
  if (typeof n === "number" && n >= 0 && Number.isSafeInteger(n)) {
    const hi = Math.floor(n / 0x1_0000_0000);
    const lo = n >>> 0;
    out[at] = hi >>> 24;
    out[at + 1] = (hi >>> 16) & 0xff;
    out[at + 2] = (hi >>> 8) & 0xff;
    out[at + 3] = hi & 0xff;
    out[at + 4] = lo >>> 24;
    out[at + 5] = (lo >>> 16) & 0xff;
    out[at + 6] = (lo >>> 8) & 0xff;
    out[at + 7] = lo & 0xff;
    return;
  }
  out.set(be64(n), at);
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** `kind|be64(a)` (|be64(b)) (|tail): the keys below in one array, the bytes concat(byte(kind), be64(a), …) gives. */
function key(kind: number, a: bigint | number, b?: bigint | number, tail?: Uint8Array): Uint8Array {
  const out = new Uint8Array(9 + (b === undefined ? 0 : 8) + (tail?.length ?? 0));
  out[0] = kind;
  putBe64(out, 1, a);
  if (b !== undefined) putBe64(out, 9, b);
  if (tail !== undefined) out.set(tail, out.length - tail.length);
  return out;
}

const proposalKey = (id: bigint) => key(PROPOSALS, id);
const queueKind = (q: Queue) => (q === "active" ? ACTIVE_QUEUE : INACTIVE_QUEUE);
/** The queues' one-byte prefixes and their ends, built once (shared: never written to). */
const QUEUE_RANGES: Readonly<Record<Queue, { readonly prefix: Uint8Array; readonly end: Uint8Array | undefined }>> = {
  active: { prefix: byte(ACTIVE_QUEUE), end: prefixEnd(byte(ACTIVE_QUEUE)) },
  inactive: { prefix: byte(INACTIVE_QUEUE), end: prefixEnd(byte(INACTIVE_QUEUE)) },
};
const queuePrefix = (q: Queue) => QUEUE_RANGES[q].prefix;
/** The Proposals collection's prefix and its end (shared: never written to). */
const PROPOSALS_PREFIX = byte(PROPOSALS);
const PROPOSALS_END = prefixEnd(PROPOSALS_PREFIX);
const queueKey = (q: Queue, time: UnixMs, id: bigint) => key(queueKind(q), time, id);
const perProposalPrefix = (kind: number, id: bigint) => key(kind, id);
const perProposalKey = (kind: number, id: bigint, address: string) => key(kind, id, undefined, addrKey(address));
/**
 * Address part of deposit/vote keys: the address bytes (handlers store only addresses with the chain's prefix); an
 * undecodable address (never stored by handlers) falls back to its text.
 */
const addrKey = (address: string): Uint8Array => anyPrefixBytes(address) ?? utf8(address);

const store = (ctx: Ctx): KVStore => ctx.kv(GOV_STORE);

/** Converts a stored timestamp; absent timestamps are a caller bug. */
export const msOf = (t: Proposal["submitTime"]): UnixMs => unixMs(t === undefined ? 0 : timestampMs(t));

export function getProposal(ctx: Ctx, id: bigint): Proposal | undefined {
  const v = store(ctx).get(proposalKey(id));
  return v === undefined ? undefined : decodeMessage(ProposalSchema, v);
}

/** The stored Proposal's protobuf bytes, undecoded: a read-only view where the store has one (never written to). */
export function getProposalBytes(ctx: Ctx, id: bigint): Uint8Array | undefined {
  const s = store(ctx);
  return s.view === undefined ? s.get(proposalKey(id)) : s.view(proposalKey(id));
}

export function setProposal(ctx: Ctx, p: Proposal): void {
  store(ctx).set(proposalKey(p.id), encodeMessage(ProposalSchema, p));
}

/** Deletes the proposal and its queue entries (not its deposits or votes). */
export function deleteProposal(ctx: Ctx, p: Proposal): void {
  const s = store(ctx);
  if (p.depositEndTime !== undefined) s.delete(queueKey("inactive", msOf(p.depositEndTime), p.id));
  if (p.votingEndTime !== undefined) s.delete(queueKey("active", msOf(p.votingEndTime), p.id));
  s.delete(proposalKey(p.id));
}

/**
 * A proposal as stored: its store key (the Proposals prefix, then its collection key, `collections.Uint64Key`: the id
 * in 8 bytes big-endian) and its encoding. Both are the store's own bytes: read, never written to.
 */
export type StoredProposal = readonly [storeKey: Uint8Array, bytes: Uint8Array];

/** A stored proposal's collection key (what a page's `next_key` carries), in a new array. */
// `slice`, not `subarray`: a view of a fresh small array makes V8 first move its bytes off its heap (about 0.6 µs).
export const proposalCollectionKey = (p: StoredProposal): Uint8Array => p[0].slice(PROPOSALS_PREFIX.length);

/** A stored proposal's id. */
export const storedProposalId = (p: StoredProposal): bigint => readBe64(p[0], PROPOSALS_PREFIX.length);

/** Every proposal in id order, undecoded: the store's entries as they are, not copied where it can view them. */
export function allStoredProposals(ctx: Ctx): readonly StoredProposal[] {
  const s = store(ctx);
  return s.viewEntries?.(PROPOSALS_PREFIX, PROPOSALS_END) ?? [...s.iterator(PROPOSALS_PREFIX, PROPOSALS_END)];
}

/** Takes the next proposal id (the first is 1). */
export function takeProposalId(ctx: Ctx): bigint {
  const s = store(ctx);
  const v = s.get(NEXT_ID_KEY);
  const id = v === undefined ? 1n : readBe64(v);
  s.set(NEXT_ID_KEY, be64(id + 1n));
  return id;
}

/** Sets the next proposal id (gov genesis's `starting_proposal_id`). */
export function setNextProposalId(ctx: Ctx, id: bigint): void {
  store(ctx).set(NEXT_ID_KEY, be64(id));
}

export function queueInsert(ctx: Ctx, q: Queue, time: UnixMs, id: bigint): void {
  store(ctx).set(queueKey(q, time, id), be64(id));
}

export function queueRemove(ctx: Ctx, q: Queue, time: UnixMs, id: bigint): void {
  store(ctx).delete(queueKey(q, time, id));
}

/**
 * The 8 big-endian bytes at `at` as a number: Number(readBe64(b, at)) (the same correctly rounded value above
 * 2^53), without a BigInt or a DataView. Queue times.
 */
const readBe64Number = (b: Uint8Array, at: number): number =>
  (((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0) * 0x1_0000_0000 +
  (((b[at + 4]! << 24) | (b[at + 5]! << 16) | (b[at + 6]! << 8) | b[at + 7]!) >>> 0);

/** Queue entries with time ≤ `until` (inclusive), in (time, id) order, read before any of them is processed. */
export function queueDue(ctx: Ctx, q: Queue, until: UnixMs): { readonly time: UnixMs; readonly id: bigint }[] {
  const prefix = queuePrefix(q);
  const end = key(queueKind(q), Number.isSafeInteger(until + 1) ? until + 1 : BigInt(until) + 1n);
  const out: { time: UnixMs; id: bigint }[] = [];
  for (const [k] of store(ctx).iterator(prefix, end)) {
    out.push({ time: unixMs(readBe64Number(k, 1)), id: readBe64(k, 9) });
  }
  return out;
}

/** The first queue entry in (time, id) order, whatever its time; undefined when the queue is empty. */
export function queueFirst(ctx: Ctx, q: Queue): { readonly time: UnixMs; readonly id: bigint } | undefined {
  const { prefix, end } = QUEUE_RANGES[q];
  for (const [k] of store(ctx).iterator(prefix, end)) {
    return { time: unixMs(readBe64Number(k, 1)), id: readBe64(k, 9) };
  }
  return undefined;
}

export function getDeposit(ctx: Ctx, id: bigint, depositor: string): Deposit | undefined {
  const v = store(ctx).get(perProposalKey(DEPOSITS, id, depositor));
  return v === undefined ? undefined : decodeMessage(DepositSchema, v);
}

export function setDeposit(ctx: Ctx, d: Deposit): void {
  store(ctx).set(perProposalKey(DEPOSITS, d.proposalId, d.depositor), encodeMessage(DepositSchema, d));
}

export function deleteDeposit(ctx: Ctx, d: Deposit): void {
  store(ctx).delete(perProposalKey(DEPOSITS, d.proposalId, d.depositor));
}

/** Deposits of a proposal in depositor-address byte order. */
export function depositsOf(ctx: Ctx, id: bigint): Deposit[] {
  const out: Deposit[] = [];
  for (const [, v] of prefixIterator(store(ctx), perProposalPrefix(DEPOSITS, id))) {
    out.push(decodeMessage(DepositSchema, v));
  }
  return out;
}

export function getVote(ctx: Ctx, id: bigint, voter: string): Vote | undefined {
  const v = store(ctx).get(perProposalKey(VOTES, id, voter));
  return v === undefined ? undefined : decodeMessage(VoteSchema, v);
}

export function setVote(ctx: Ctx, v: Vote): void {
  store(ctx).set(perProposalKey(VOTES, v.proposalId, v.voter), encodeMessage(VoteSchema, v));
}

/** Votes of a proposal in voter-address byte order. */
export function votesOf(ctx: Ctx, id: bigint): Vote[] {
  const out: Vote[] = [];
  for (const [, v] of prefixIterator(store(ctx), perProposalPrefix(VOTES, id))) out.push(decodeMessage(VoteSchema, v));
  return out;
}

export function deleteVotes(ctx: Ctx, id: bigint): void {
  const s = store(ctx);
  const keys = [...prefixIterator(s, perProposalPrefix(VOTES, id))].map(([k]) => k);
  for (const k of keys) s.delete(k);
}

export function getStoredParams(ctx: Ctx): Params | undefined {
  const v = getStoredParamsBytes(ctx);
  return v === undefined ? undefined : decodeMessage(ParamsSchema, v);
}

/** The stored params record as bytes (never to be mutated); undefined when absent. */
export function getStoredParamsBytes(ctx: Ctx): Uint8Array | undefined {
  return store(ctx).get(PARAMS_KEY);
}

export function setStoredParams(ctx: Ctx, p: Params): void {
  store(ctx).set(PARAMS_KEY, encodeMessage(ParamsSchema, p));
}
