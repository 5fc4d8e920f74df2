import {
  create,
  type DescField,
  type DescMessage,
  type JsonValue,
  type Message,
  type Registry,
  toJson,
} from "@bufbuild/protobuf";
import { isReflectMessage, type ReflectMessage, reflect } from "@bufbuild/protobuf/reflect";
import { type Any, anyUnpack } from "@bufbuild/protobuf/wkt";
import { CompiledJson, goHtmlEscape } from "./json-compiled.js";
import { JsonTranscoder } from "./json-transcode.js";

/**
 * Gateway JSON (docs/node-api.md §2.4): the reference's gogo JSONPb with `EmitDefaults: true, OrigName: true`. Built on
 * `toJson` (proto field names, implicit defaults emitted), then patched per the descriptor:
 * - keys in declaration order; an unset oneof is omitted;
 * - an unset message field is `null`, except gogoproto non-nullable fields (`nonNullable`), which render as their zero
 *   value (a zero Timestamp is `"0001-01-01T00:00:00Z"`);
 * - empty singular bytes and an unset explicit-presence scalar are `null`;
 * - Any is `{"@type": <type url as stored>, ...fields}` with its payload patched the same way;
 * - map entries sorted by key (Go sorts map keys);
 * - the text is compact and HTML-escaped like Go encoding/json (`<` `>` `&` U+2028 U+2029).
 */
export interface GatewayJsonOptions {
  /** Resolves Any payloads; an unresolvable type URL is a marshal error. */
  readonly registry?: Registry | undefined;
  /** Full field names (`pkg.Message.field`) of gogoproto non-nullable message fields. */
  readonly nonNullable?: ReadonlySet<string> | undefined;
}

/** Non-nullable message fields of the served protos (gogoproto `nullable = false` in the reference). */
export const DEFAULT_NON_NULLABLE: ReadonlySet<string> = new Set([
  "chain.upgrade.v1beta1.Plan.time",
  "chain.base.tendermint.v1beta1.Block.header",
  "chain.base.tendermint.v1beta1.Block.data",
  "chain.base.tendermint.v1beta1.Block.evidence",
  "chain.base.tendermint.v1beta1.Header.version",
  "chain.base.tendermint.v1beta1.Header.time",
  "chain.base.tendermint.v1beta1.Header.last_block_id",
  "chain.base.tendermint.v1beta1.CometBlock.header",
  "chain.base.tendermint.v1beta1.CometBlock.data",
  "chain.base.tendermint.v1beta1.CometBlock.evidence",
  "chain.base.tendermint.v1beta1.CometHeader.version",
  "chain.base.tendermint.v1beta1.CometHeader.time",
  "chain.base.tendermint.v1beta1.CometHeader.last_block_id",
  "chain.base.tendermint.v1beta1.BlockID.part_set_header",
  "chain.base.tendermint.v1beta1.Commit.block_id",
]);

/** A JSON value whose objects keep an explicit key order. */
export type OrderedJson =
  | null
  | boolean
  | number
  | string
  | readonly OrderedJson[]
  | { readonly entries: readonly (readonly [string, OrderedJson])[] };

type ObjectJson = { readonly entries: readonly (readonly [string, OrderedJson])[] };

export const ZERO_TIME = "0001-01-01T00:00:00Z";
const TIMESTAMP = "google.protobuf.Timestamp";
const ANY = "google.protobuf.Any";

/** Thrown by rendering when the reference marshaller would fail (e.g. an Any type it cannot resolve). */
export class MarshalError extends Error {}

const isWkt = (d: DescMessage): boolean => d.typeName.startsWith("google.protobuf.");

function fromPlain(v: JsonValue): OrderedJson {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(fromPlain);
  return { entries: Object.entries(v).map(([k, x]) => [k, fromPlain(x as JsonValue)] as const) };
}

function plainOf(base: JsonValue | undefined, name: string): JsonValue | undefined {
  if (base === null || base === undefined || typeof base !== "object" || Array.isArray(base)) return undefined;
  return (base as Record<string, JsonValue>)[name];
}

const writeOptions = new WeakMap<GatewayJsonOptions, Parameters<typeof toJson>[2]>();
/** toJson's options for `opts` (built once per options object: every message of every answer passes them). */
function writeOptionsOf(opts: GatewayJsonOptions): Parameters<typeof toJson>[2] {
  let w = writeOptions.get(opts);
  if (w === undefined) {
    w = { useProtoFieldName: true, alwaysEmitImplicit: true, enumAsInteger: false, registry: opts.registry };
    writeOptions.set(opts, w);
  }
  return w;
}

function toJsonSafe(desc: DescMessage, msg: Message, opts: GatewayJsonOptions): JsonValue {
  try {
    return toJson(desc, msg, writeOptionsOf(opts));
  } catch (e) {
    throw new MarshalError(e instanceof Error ? e.message : String(e));
  }
}

function renderAny(any: Any, opts: GatewayJsonOptions): OrderedJson {
  const inner = opts.registry === undefined ? undefined : anyUnpack(any, opts.registry);
  if (inner === undefined) throw new MarshalError(`unable to resolve type URL ${any.typeUrl}`);
  const desc = opts.registry!.getMessage(inner.$typeName)!;
  const body = renderMessage(desc, inner, opts);
  const head: [string, OrderedJson] = ["@type", any.typeUrl];
  if (isWkt(desc)) return { entries: [head, ["value", body]] };
  const entries = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as ObjectJson).entries : [];
  return { entries: [head, ...entries] };
}

function renderSingularMessage(
  field: DescField & { message: DescMessage },
  value: ReflectMessage,
  opts: GatewayJsonOptions,
) {
  return renderMessage(field.message, value.message, opts);
}

function zeroOf(field: DescField & { message: DescMessage }, opts: GatewayJsonOptions): OrderedJson {
  if (field.message.typeName === TIMESTAMP) return ZERO_TIME;
  return renderMessage(field.message, create(field.message), opts);
}

function compareMapKeys(a: unknown, b: unknown): number {
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === "boolean") return a === b ? 0 : a ? 1 : -1;
  const x = BigInt(a as number | bigint);
  const y = BigInt(b as number | bigint);
  return x < y ? -1 : x > y ? 1 : 0;
}

function renderField(
  desc: DescMessage,
  field: DescField,
  r: ReflectMessage,
  base: JsonValue | undefined,
  opts: GatewayJsonOptions,
): OrderedJson {
  const plain = plainOf(base, field.name);
  switch (field.fieldKind) {
    case "message": {
      if (!r.isSet(field)) {
        return opts.nonNullable?.has(`${desc.typeName}.${field.name}`) === true ? zeroOf(field, opts) : null;
      }
      const v = r.get(field);
      if (field.message.typeName === ANY) return renderAny(v.message as Any, opts);
      if (isWkt(field.message)) return fromPlain(toJsonSafe(field.message, v.message, opts));
      return renderSingularMessage(field, v, opts);
    }
    case "list": {
      if (field.listKind !== "message") return plain === undefined ? [] : fromPlain(plain);
      const out: OrderedJson[] = [];
      for (const item of r.get(field)) {
        if (!isReflectMessage(item)) continue;
        if (field.message.typeName === ANY) out.push(renderAny(item.message as Any, opts));
        else if (isWkt(field.message)) out.push(fromPlain(toJsonSafe(field.message, item.message, opts)));
        else out.push(renderMessage(field.message, item.message, opts));
      }
      return out;
    }
    case "map": {
      const m = r.get(field);
      const keys = [...m.keys()].sort(compareMapKeys);
      const entries: [string, OrderedJson][] = [];
      for (const k of keys) {
        const v = m.get(k);
        let value: OrderedJson;
        if (field.mapKind === "message" && isReflectMessage(v)) {
          value =
            field.message.typeName === ANY
              ? renderAny(v.message as Any, opts)
              : isWkt(field.message)
                ? fromPlain(toJsonSafe(field.message, v.message, opts))
                : renderMessage(field.message, v.message, opts);
        } else {
          value = fromPlain(plainOf(plain, String(k)) ?? null);
        }
        entries.push([String(k), value]);
      }
      return { entries };
    }
    default: {
      if (field.fieldKind === "scalar" && field.scalar === 12 /* BYTES */) {
        const v = r.get(field);
        if (v instanceof Uint8Array && v.length === 0) return null;
      }
      return plain === undefined ? null : fromPlain(plain);
    }
  }
}

const holdsMessages = (f: DescField): boolean =>
  f.fieldKind === "message" ||
  (f.fieldKind === "list" && f.listKind === "message") ||
  (f.fieldKind === "map" && f.mapKind === "message");

const holdingMessages = new WeakMap<DescMessage, boolean>();
/** Whether any field of `desc` holds messages (memoised per descriptor); without any, scalarsOnly is the message. */
function holdsAnyMessages(desc: DescMessage): boolean {
  let h = holdingMessages.get(desc);
  if (h === undefined) {
    h = desc.fields.some(holdsMessages);
    holdingMessages.set(desc, h);
  }
  return h;
}

/**
 * The message without its message-typed fields: `toJson` of it gives the scalar values, and cannot fail on an Any
 * nested below (message fields are rendered separately).
 */
function scalarsOnly(desc: DescMessage, msg: Message): Message {
  // Unknown fields (extensions among them) are left out of the copy, so only a message without any is itself.
  if (!holdsAnyMessages(desc) && (msg.$unknown === undefined || msg.$unknown.length === 0)) return msg;
  const out = create(desc) as unknown as Record<string, unknown>;
  const src = msg as unknown as Record<string, unknown>;
  for (const member of desc.members) {
    if (member.kind === "oneof") {
      const adt = src[member.localName] as { case: string | undefined };
      const f = member.fields.find((x) => x.localName === adt.case);
      if (f !== undefined && !holdsMessages(f)) out[member.localName] = adt;
    } else if (!holdsMessages(member)) out[member.localName] = src[member.localName];
  }
  return out as unknown as Message;
}

/** Renders one message as gateway JSON with ordered keys. */
export function renderMessage(desc: DescMessage, msg: Message, opts: GatewayJsonOptions): OrderedJson {
  if (desc.typeName === ANY) return renderAny(msg as Any, opts);
  if (isWkt(desc)) return fromPlain(toJsonSafe(desc, msg, opts));
  const base = toJsonSafe(desc, scalarsOnly(desc, msg), opts);
  const r = reflect(desc, msg, false);
  const entries: [string, OrderedJson][] = [];
  for (const member of desc.members) {
    if (member.kind === "oneof") {
      const set = r.oneofCase(member);
      if (set !== undefined) entries.push([set.name, renderField(desc, set, r, base, opts)]);
      continue;
    }
    entries.push([member.name, renderField(desc, member, r, base, opts)]);
  }
  return { entries };
}

/** Marks a value whose key order a plain object would not keep (see plainOf). */
const UNORDERED = Symbol("unordered");

/**
 * The value with plain objects for ordered ones, or UNORDERED when a plain object would not keep
 * its keys as they are: a key that is an array index (objects list those first) or a repeated key; `__proto__` is
 * left to the ordered writer too. Then JSON.stringify writes the same text as `writeOrdered`, faster.
 */
function plainJson(v: OrderedJson): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) {
      const x = plainJson(v[i]!);
      if (x === UNORDERED) return UNORDERED;
      out[i] = x;
    }
    return out;
  }
  // An ordinary object (V8 stringifies it on its fast path); `__proto__`, its one special key, never gets here.
  const out: Record<string, unknown> = {};
  for (const [k, x] of (v as ObjectJson).entries) {
    if (k === "__proto__" || INDEX_LIKE.test(k) || Object.hasOwn(out, k)) return UNORDERED;
    const p = plainJson(x);
    if (p === UNORDERED) return UNORDERED;
    out[k] = p;
  }
  return out;
}
/** Keys a plain object may order first (array indices are digit strings; any key starting with a digit goes here). */
const INDEX_LIKE = /^[0-9]/;

/** Compact JSON text of an ordered value, keys in their order. */
function write(v: OrderedJson): string {
  const plain = plainJson(v);
  return plain === UNORDERED ? writeOrdered(v) : JSON.stringify(plain);
}

function writeOrdered(v: OrderedJson): string {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  // One string built left to right (no intermediate arrays): the same text as map/join.
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) out += i === 0 ? writeOrdered(v[i]!) : `,${writeOrdered(v[i]!)}`;
    return `${out}]`;
  }
  const entries = (v as ObjectJson).entries;
  let out = "{";
  for (let i = 0; i < entries.length; i++) {
    const [k, x] = entries[i]!;
    out += `${i === 0 ? "" : ","}${JSON.stringify(k)}:${writeOrdered(x)}`;
  }
  return `${out}}`;
}

/** Compact, Go-escaped JSON text of an ordered value. */
export const stringifyGo = (v: OrderedJson): string => goHtmlEscape(write(v));

/**
 * Gateway JSON text of a message by the reflective renderer (renderMessage): the reference the compiled writers
 * (json-compiled.ts) are held to, and their path for map fields and nested well-known payloads.
 */
export function gatewayJsonReference(desc: DescMessage, msg: Message, opts: GatewayJsonOptions = {}): string {
  return stringifyGo(renderMessage(desc, msg, opts));
}

const compiledByOptions = new WeakMap<GatewayJsonOptions, CompiledJson>();
const transcoderByOptions = new WeakMap<GatewayJsonOptions, JsonTranscoder>();
const NO_OPTIONS: GatewayJsonOptions = {};
/** The compiled writers of `opts` (built once per options object, each type's writer on first use). */
function compiledOf(opts: GatewayJsonOptions): CompiledJson {
  let c = compiledByOptions.get(opts);
  if (c === undefined) {
    c = new CompiledJson({
      nonNullable: opts.nonNullable,
      registry: opts.registry,
      reference: (desc, msg) => goHtmlEscape(write(renderMessage(desc, msg, opts))),
      wellKnown: (desc, msg) => goHtmlEscape(JSON.stringify(toJsonSafe(desc, msg, opts))),
      marshalError: (message) => new MarshalError(message),
    });
    compiledByOptions.set(opts, c);
  }
  return c;
}

/**
 * Gateway JSON text of a message; throws MarshalError where the reference marshaller fails. Written by the
 * compiled per-type writers (json-compiled.ts, which escape for HTML as they write), byte for byte the text of
 * gatewayJsonReference.
 */
export function gatewayJson(desc: DescMessage, msg: Message, opts: GatewayJsonOptions = NO_OPTIONS): string {
  return compiledOf(opts).text(desc, msg);
}

/**
 * Gateway JSON text of the message `bytes` encode (protobuf binary of `desc`; with `field`, the message whose one
 * record is its message field `field` holding `bytes`), written from the bytes by the transcoder (json-transcode.ts):
 * byte for byte what `gatewayJson(desc, decodeMessage(desc, encoding), opts)` writes. Undefined where the transcoder
 * does not cover the type or the input: the caller decodes and calls gatewayJson (which returns or throws as it does).
 */
export function gatewayJsonOfTranscoded(
  desc: DescMessage,
  bytes: Uint8Array,
  field: number | undefined,
  opts: GatewayJsonOptions = NO_OPTIONS,
): string | undefined {
  let t = transcoderByOptions.get(opts);
  if (t === undefined) {
    t = new JsonTranscoder(compiledOf(opts));
    transcoderByOptions.set(opts, t);
  }
  return t.text(desc, bytes, field);
}
