import { type DescField, type DescMessage, fromBinary, ScalarType } from "@bufbuild/protobuf";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import { err, ok, type Result } from "../core/errors.js";

/**
 * The reference's strict wire checks of a transaction, run before any decoding (Cosmos SDK v0.50
 * `x/auth/tx/decoder.go` DefaultTxDecoder, `x/auth/tx/adr027.go` rejectNonADR027TxRaw, `codec/unknownproto`
 * RejectUnknownFields). Each returns the reference's text; the caller wraps it as `<text>: tx parse error` (code 2).
 *
 * 1. ADR-027 on TxRaw: every field is length-delimited (`expected 2 wire type, got N`), tag numbers never decrease
 *    (`txRaw must follow ADR-027, got tagNum A after tagNum B`), and every length prefix is the shortest varint
 *    (`length prefix varint for tagNum N is not as short as possible, read R, only need M`); truncation is
 *    `invalid length; unexpected EOF`.
 * 2. Unknown fields at every depth, inside `Any` values too (the Any's type URL resolved by the interface registry,
 *    `unable to resolve type URL <url>`): `errUnknownField "<Go type>": {TagNum: N, WireType: "<w>"}`; a known field
 *    sent with a wire type its type cannot use is `Mismatched "<Go type>": {TagNum: N, GotWireType: "<g>" !=
 *    WantWireType: "<w>"}`. A field number with bit 11 set (`n & 1024 != 0`) is non-critical: allowed in the body
 *    (and in every message below it), refused in TxRaw and AuthInfo.
 *
 * Like the reference, the ADR-027 check does not refuse a repeated `body_bytes` or `auth_info_bytes` (equal tag
 * numbers pass; the last value wins) nor an over-long tag varint: both re-encode a signed tx under a second hash, in
 * the reference as here (the reference wins; `src/devnet/strict-decode.test.ts` pins both).
 */

const NON_CRITICAL_BIT = 1 << 10;
const RECURSION_LIMIT = 10_000;
const WIRE_NAMES = ["varint", "fixed64", "bytes", "start_group", "end_group", "fixed32"];
const wireName = (w: number): string => WIRE_NAMES[w] ?? `unknown type: ${w}`;

/** A varint at `pos`: its value (exact below 2^64) and length in bytes, or an error code as protowire's. */
function readVarint(b: Uint8Array, pos: number): { value: bigint; n: number } | "truncated" | "overflow" {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (pos + i >= b.length) return "truncated";
    const byte = b[pos + i]!;
    if (i === 9 && byte > 1) return "overflow";
    value |= BigInt(byte & 0x7f) << BigInt(7 * i);
    if (byte < 0x80) return { value, n: i + 1 };
  }
  return "overflow";
}

const PARSE_ERRORS = {
  truncated: "unexpected EOF",
  overflow: "variable length integer overflow",
  field: "invalid field number",
  reserved: "cannot parse reserved wire type",
  group: "mismatching end group marker",
} as const;
type ParseCode = keyof typeof PARSE_ERRORS;

function readTag(b: Uint8Array, pos: number): { no: number; wire: number; n: number } | ParseCode {
  const v = readVarint(b, pos);
  if (typeof v === "string") return v;
  if (v.value >> 3n > 0x7fffffffn) return "field";
  const no = Number(v.value >> 3n);
  if (no < 1) return "field";
  return { no, wire: Number(v.value & 7n), n: v.n };
}

/** Length of the field value after its tag (protowire.ConsumeFieldValue), groups included. */
function fieldValueLength(b: Uint8Array, pos: number, no: number, wire: number, depth: number): number | ParseCode {
  switch (wire) {
    case 0: {
      const v = readVarint(b, pos);
      return typeof v === "string" ? v : v.n;
    }
    case 1:
      return pos + 8 <= b.length ? 8 : "truncated";
    case 5:
      return pos + 4 <= b.length ? 4 : "truncated";
    case 2: {
      const v = readVarint(b, pos);
      if (typeof v === "string") return v;
      if (v.value > BigInt(b.length - pos - v.n)) return "truncated";
      return v.n + Number(v.value);
    }
    case 3:
      return groupLength(b, pos, no, depth);
    case 4:
      return "group";
    default:
      return "reserved";
  }
}

function groupLength(b: Uint8Array, start: number, no: number, depth: number): number | ParseCode {
  if (depth <= 0) return "overflow";
  let pos = start;
  while (pos < b.length) {
    const t = readTag(b, pos);
    if (typeof t === "string") return t;
    pos += t.n;
    if (t.wire === 4) return t.no === no ? pos - start : "group";
    const n = fieldValueLength(b, pos, t.no, t.wire, depth - 1);
    if (typeof n === "string") return n;
    pos += n;
  }
  return "truncated";
}

/** The minimal varint length of `n` (protowire's SizeVarint). */
const minVarintLength = (n: bigint): number => {
  let len = 1;
  for (let v = n >> 7n; v > 0n; v >>= 7n) len++;
  return len;
};

/** rejectNonADR027TxRaw: the reference's text, or undefined when the bytes are in ADR-027 form. */
export function adr027Violation(bytes: Uint8Array): string | undefined {
  let prev = 0;
  let pos = 0;
  while (pos < bytes.length) {
    const t = readTag(bytes, pos);
    if (typeof t === "string") return `invalid length; ${PARSE_ERRORS[t]}`;
    if (t.wire !== 2) return `expected 2 wire type, got ${t.wire}`;
    if (t.no < prev) return `txRaw must follow ADR-027, got tagNum ${t.no} after tagNum ${prev}`;
    prev = t.no;
    const len = readVarint(bytes, pos + t.n);
    if (typeof len === "string") return `invalid length; ${PARSE_ERRORS[len]}`;
    const need = minVarintLength(len.value);
    if (need !== len.n)
      return `length prefix varint for tagNum ${t.no} is not as short as possible, read ${len.n}, only need ${need}`;
    const n = fieldValueLength(bytes, pos + t.n, t.no, t.wire, RECURSION_LIMIT);
    if (typeof n === "string") return `invalid length; ${PARSE_ERRORS[n]}`;
    pos += t.n + n;
  }
  return undefined;
}

/** The Go package name of each proto package, as `reflect.Type.String()` prints a gogoproto message. */
const GO_PACKAGES: Readonly<Record<string, string>> = {
  "tx.v1beta1": "tx",
  "tx.signing.v1beta1": "signing",
  "base.v1beta1": "types",
  "crypto.secp256k1": "secp256k1",
  "crypto.multisig.v1beta1": "types",
  "gov.v1": "v1",
  "upgrade.v1beta1": "types",
  "auth.v1beta1": "types",
  "bank.v1beta1": "types",
};

/** `*tx.TxBody`, `*types.Any`, `*tx.ModeInfo_Single`: the Go type the reference names in its errors. */
export function goTypeName(desc: DescMessage): string {
  const pkg = desc.file.proto.package;
  const local = desc.typeName.slice(pkg.length + 1).replaceAll(".", "_");
  if (pkg === "google.protobuf") return `*types.${local}`;
  const rest = pkg.slice(pkg.indexOf(".") + 1);
  return `*${GO_PACKAGES[rest] ?? rest.split(".").at(-1)}.${local}`;
}

const VARINT_SCALARS = new Set([
  ScalarType.INT32,
  ScalarType.INT64,
  ScalarType.UINT32,
  ScalarType.UINT64,
  ScalarType.SINT32,
  ScalarType.SINT64,
  ScalarType.BOOL,
]);
const FIXED64_SCALARS = new Set([ScalarType.FIXED64, ScalarType.SFIXED64, ScalarType.DOUBLE]);

/** The wire type a field's type encodes with (protowire's), and whether `wire` is accepted (unknownproto's table). */
function wireTypes(f: DescField): { want: number; accepts: (wire: number) => boolean } {
  const scalar = f.fieldKind === "scalar" || (f.fieldKind === "list" && f.listKind === "scalar") ? f.scalar : undefined;
  const isEnum = f.fieldKind === "enum" || (f.fieldKind === "list" && f.listKind === "enum");
  if (isEnum || (scalar !== undefined && VARINT_SCALARS.has(scalar)))
    return { want: 0, accepts: (w) => w === 0 || w === 2 };
  if (scalar !== undefined && FIXED64_SCALARS.has(scalar)) return { want: 1, accepts: (w) => w === 1 || w === 2 };
  if (scalar === ScalarType.FIXED32 || scalar === ScalarType.SFIXED32 || scalar === ScalarType.FLOAT)
    return { want: 5, accepts: (w) => w === 5 };
  return { want: 2, accepts: (w) => w === 2 };
}

const messageOf = (f: DescField): DescMessage | undefined =>
  f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message") ? f.message : undefined;

/** Resolves an Any's type URL as the interface registry does (exact `/full.Name` match), or undefined. */
export type AnyResolver = (typeUrl: string) => DescMessage | undefined;

/**
 * RejectUnknownFields over `bytes` as a `desc`: the reference's error text, else whether a non-critical unknown field
 * was seen (allowed only with `allowNonCritical`).
 */
export function rejectUnknownFields(
  bytes: Uint8Array,
  desc: DescMessage,
  allowNonCritical: boolean,
  resolve: AnyResolver,
  depth = RECURSION_LIMIT,
): Result<boolean, string> {
  if (bytes.length === 0) return ok(false);
  if (depth === 0) return err("recursion limit reached");
  let nonCritical = false;
  let pos = 0;
  while (pos < bytes.length) {
    const t = readTag(bytes, pos);
    if (typeof t === "string") return err("invalid length");
    const field = desc.fields.find((f) => f.number === t.no);
    if (field === undefined) {
      const critical = (t.no & NON_CRITICAL_BIT) === 0;
      if (!critical) nonCritical = true;
      if (critical || !allowNonCritical)
        return err(
          `errUnknownField ${JSON.stringify(goTypeName(desc))}: {TagNum: ${t.no}, WireType: "${wireName(t.wire)}"}`,
        );
    } else {
      const w = wireTypes(field);
      if (!w.accepts(t.wire))
        return err(
          `Mismatched ${JSON.stringify(goTypeName(desc))}: {TagNum: ${t.no}, GotWireType: "${wireName(t.wire)}" != WantWireType: "${wireName(w.want)}"}`,
        );
    }
    pos += t.n;
    const n = fieldValueLength(bytes, pos, t.no, t.wire, depth);
    if (typeof n === "string")
      return err(
        `could not consume field value for tagNum: ${t.no}, wireType: "${wireName(t.wire)}"; ${PARSE_ERRORS[n]}`,
      );
    const value = bytes.subarray(pos, pos + n);
    pos += n;
    const nested = field === undefined ? undefined : messageOf(field);
    if (nested === undefined) continue;
    const inner = value.subarray((readVarint(value, 0) as { n: number }).n);
    const child = checkNested(inner, nested, allowNonCritical, resolve, depth - 1);
    if (!child.ok) return child;
    nonCritical ||= child.value;
  }
  return ok(nonCritical);
}

function checkNested(
  bytes: Uint8Array,
  desc: DescMessage,
  allowNonCritical: boolean,
  resolve: AnyResolver,
  depth: number,
): Result<boolean, string> {
  if (desc.typeName !== AnySchema.typeName) return rejectUnknownFields(bytes, desc, allowNonCritical, resolve, depth);
  const own = rejectUnknownFields(bytes, AnySchema, allowNonCritical, resolve, depth);
  if (!own.ok) return own;
  let any: { typeUrl: string; value: Uint8Array };
  try {
    any = fromBinary(AnySchema, bytes);
  } catch (e) {
    return err(e instanceof Error ? e.message : String(e));
  }
  const target = resolve(any.typeUrl);
  if (target === undefined) return err(`unable to resolve type URL ${any.typeUrl}`);
  const inner = rejectUnknownFields(any.value, target, allowNonCritical, resolve, depth);
  return inner.ok ? ok(own.value || inner.value) : inner;
}
