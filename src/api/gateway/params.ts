import { type DescField, type DescMessage, type Message, ScalarType } from "@bufbuild/protobuf";
import { type ReflectMessage, reflect } from "@bufbuild/protobuf/reflect";
import { err, ok, type Result } from "../../core/errors.js";
import { gatewayBytes } from "../../core/go/base64.js";
import { parseGoBool, parseGoInt, parseGoUint, quoteLatin1 } from "../../core/go/strconv.js";
import { type ByteString, text } from "../../core/go/url.js";

/**
 * Request population from path and query parameters, as grpc-gateway v1.16 generated handlers and
 * `runtime.PopulateQueryParameters` do. Values are byte strings (decoded path segments / query values); numbers use Go
 * strconv with base 0 (ParseInt/ParseUint, 64 or 32 bits), bools ParseBool, bytes base64, enums a name or a defined
 * number. Errors are the Go texts; the caller makes them InvalidArgument.
 */

/** Go package identifiers of the served proto packages (for `%T` in Go error texts). */
const GO_PACKAGES: Readonly<Record<string, string>> = {
  "upgrade.v1beta1": "types",
  "gov.v1": "v1",
  "gov.v1beta1": "v1beta1",
  "base.tendermint.v1beta1": "cmtservice",
  "base.query.v1beta1": "query",
  "base.v1beta1": "types",
};

/** Go `%T` of a pointer to the generated struct of `desc`, e.g. `*types.QueryModuleVersionsRequest`. */
export function goPointerType(desc: DescMessage): string {
  const pkg = desc.file.proto.package;
  const goPkg = GO_PACKAGES[pkg.slice(pkg.indexOf(".") + 1)] ?? pkg.split(".").pop() ?? pkg;
  const local = desc.typeName.slice(pkg.length + 1).replace(/\./g, "_");
  return `*${goPkg}.${local}`;
}

/** Go type name of a scalar field's struct member (for `unexpected type %s in %T`). */
function goFieldType(f: DescField): string {
  if (f.fieldKind === "enum") return goPointerType(f.parent).slice(1).split(".")[0] + "." + f.enum.name;
  if (f.fieldKind !== "scalar") return "interface {}";
  switch (f.scalar) {
    case ScalarType.STRING:
      return "string";
    case ScalarType.BOOL:
      return "bool";
    case ScalarType.BYTES:
      return "[]uint8";
    case ScalarType.DOUBLE:
      return "float64";
    case ScalarType.FLOAT:
      return "float32";
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return "int32";
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return "uint32";
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return "uint64";
    default:
      return "int64";
  }
}

/** Go strconv.ParseFloat (decimal, hex, inf/infinity/nan), enough for query parameters. */
function parseGoFloat(v: ByteString, bits: 32 | 64): Result<number, string> {
  const s = v.replace(/_/g, "");
  const syntax = `strconv.ParseFloat: parsing ${quoteLatin1(v)}: invalid syntax`;
  const lower = s.toLowerCase().replace(/^[+-]/, "");
  const neg = s.startsWith("-");
  if (lower === "inf" || lower === "infinity") return ok(neg ? -Infinity : Infinity);
  if (lower === "nan") return ok(Number.NaN);
  if (v.includes("_") && !/^[+-]?0x/i.test(v)) return err(syntax);
  let n: number;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(s)) n = Number(s);
  else if (/^[+-]?0x[0-9a-f]*\.?[0-9a-f]*p[+-]?\d+$/i.test(s)) {
    const m = /^([+-]?)0x([0-9a-f]*)\.?([0-9a-f]*)p([+-]?\d+)$/i.exec(s)!;
    const mant = Number.parseInt(`${m[2]}${m[3]}` || "0", 16) / 16 ** m[3]!.length;
    n = (m[1] === "-" ? -1 : 1) * mant * 2 ** Number(m[4]);
  } else return err(syntax);
  const limit = bits === 32 ? 3.4028234663852886e38 : Number.MAX_VALUE;
  if (!Number.isFinite(n) || Math.abs(n) > limit)
    return err(`strconv.ParseFloat: parsing ${quoteLatin1(v)}: value out of range`);
  return ok(n);
}

/** grpc-gateway `runtime.Enum`: a value name, or a number (base 0, 32 bits) that names a defined value. */
function parseEnum(f: DescField & { fieldKind: "enum" }, v: ByteString): Result<number, string> {
  const byName = f.enum.values.find((x) => x.name === v);
  if (byName !== undefined) return ok(byName.number);
  const n = parseGoInt(v, 0, 32, quoteLatin1);
  if (n.ok && f.enum.values.some((x) => BigInt(x.number) === n.value)) return ok(Number(n.value));
  return err(`${text(v)} is not valid`);
}

/** A parsed integer as the field holds it (a number for 32-bit fields, a bigint for 64-bit ones), or its error text. */
function num(r: Result<bigint, { text: string }>, asNumber: boolean): Result<unknown, string> {
  return r.ok ? ok(asNumber ? Number(r.value) : r.value) : err(r.error.text);
}

/**
 * Converts one value for a scalar or enum field (singular or list element). No closure is made per call: on every
 * request with a path parameter, a named closure costs more than the conversion when run under tsx (esbuild's
 * keepNames `__name` defines a property on each one).
 */
function convert(f: DescField, v: ByteString): Result<unknown, string> {
  const kindEnum = f.fieldKind === "enum" || (f.fieldKind === "list" && f.listKind === "enum");
  if (kindEnum) return parseEnum(f as DescField & { fieldKind: "enum" }, v);
  const scalar = f.fieldKind === "scalar" ? f.scalar : f.fieldKind === "list" ? f.scalar : undefined;
  const q = quoteLatin1;
  switch (scalar) {
    case ScalarType.STRING:
      return ok(text(v));
    case ScalarType.BOOL: {
      const b = parseGoBool(v, q);
      return b.ok ? b : err(b.error.text);
    }
    case ScalarType.BYTES:
      return gatewayBytes(v);
    case ScalarType.DOUBLE:
      return parseGoFloat(v, 64);
    case ScalarType.FLOAT:
      return parseGoFloat(v, 32);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return num(parseGoInt(v, 0, 32, q), true);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return num(parseGoUint(v, 0, 32, q), true);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return num(parseGoInt(v, 0, 64, q), false);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return num(parseGoUint(v, 0, 64, q), false);
    default:
      return err("unsupported field type");
  }
}

function findField(desc: DescMessage, name: string): DescField | undefined {
  return desc.fields.find((f) => f.name === name) ?? desc.fields.find((f) => f.jsonName === name);
}

/** Walks to the message holding the last component of `path`, creating intermediate messages. */
function walk(
  root: ReflectMessage,
  path: readonly string[],
): Result<{ holder: ReflectMessage; field: DescField } | undefined, string> {
  let holder = root;
  for (let i = 0; i < path.length; i++) {
    const isLast = i === path.length - 1;
    const field = findField(holder.desc, path[i]!);
    if (field === undefined) return ok(undefined);
    if (isLast) return ok({ holder, field });
    if (field.fieldKind === "message") {
      if (!holder.isSet(field)) holder.set(field, reflect(field.message));
      holder = holder.get(field);
      continue;
    }
    if (field.fieldKind === "list") return err(`unexpected repeated field in ${path.join(".")}`);
    if (field.fieldKind === "map") return ok(undefined);
    return err(`unexpected type ${goFieldType(field)} in ${goPointerType(root.desc)}`);
  }
  return ok(undefined);
}

/**
 * Sets a field from one value (path parameters; the generated `runtime.<Type>(val)` conversions). The error is the
 * bare conversion error; the caller adds `type mismatch, parameter: <name>, error: `.
 */
export function setPathParam(
  msg: Message,
  desc: DescMessage,
  fieldPath: string,
  value: ByteString,
): Result<void, string> {
  const root = reflect(desc, msg);
  const w = walk(root, fieldPath.split("."));
  if (!w.ok) return w;
  if (w.value === undefined) return err(`no field ${fieldPath}`);
  const { holder, field } = w.value;
  if (field.fieldKind !== "scalar" && field.fieldKind !== "enum") return err(`unsupported path parameter ${fieldPath}`);
  const v = convert(field, value);
  if (!v.ok) return v;
  holder.set(field, v.value as never);
  return ok(undefined);
}

/**
 * `runtime.PopulateQueryParameters`: each key is a dotted field path by proto or JSON name; keys starting with a
 * path-bound field (`filter`) and unknown fields are ignored; a singular field takes the first value, a repeated one
 * all values. Keys written with any JSON name are applied before all-proto-name keys, so that the proto spelling wins
 * when both are given (the reference picks at random).
 */
export function populateQuery(
  msg: Message,
  desc: DescMessage,
  values: ReadonlyMap<string, readonly ByteString[]>,
  filter: readonly (readonly string[])[],
): Result<void, string> {
  const root = reflect(desc, msg);
  const isProtoSpelled = (key: string): boolean => {
    let d: DescMessage | undefined = desc;
    for (const part of key.split(".")) {
      const f: DescField | undefined = d?.fields.find((x) => x.name === part);
      if (f === undefined) return false;
      d = f.fieldKind === "message" ? f.message : undefined;
    }
    return true;
  };
  const keys = [...values.keys()];
  const ordered = [...keys.filter((k) => !isProtoSpelled(k)), ...keys.filter(isProtoSpelled)];
  for (const key of ordered) {
    const path = key.split(".");
    if (filter.some((f) => f.length <= path.length && f.every((p, i) => p === path[i]))) continue;
    const vs = values.get(key)!;
    const w = walk(root, path);
    if (!w.ok) return w;
    if (w.value === undefined) continue;
    const { holder, field } = w.value;
    if (field.fieldKind === "map") continue;
    if (field.fieldKind === "message") {
      return err(`field type ${goPointerType(field.message)} is not supported in query parameters`);
    }
    if (field.fieldKind === "list") {
      if (field.listKind === "message") {
        return err(`field type ${goPointerType(field.message)} is not supported in query parameters`);
      }
      const list = holder.get(field);
      for (const v of vs) {
        const c = convert(field, v);
        if (!c.ok) return c;
        list.add(c.value as never);
      }
      continue;
    }
    if (vs.length === 0) return err(`no value of field: ${key}`);
    const c = convert(field, vs[0]!);
    if (!c.ok) return c;
    holder.set(field, c.value as never);
  }
  return ok(undefined);
}

/** True when the request has a top-level field not bound by a path parameter (the generated code reads the query). */
export function hasQueryParams(input: DescMessage, pathVars: readonly string[]): boolean {
  const bound = new Set(pathVars.map((v) => v.split(".")[0]));
  return input.fields.some((f) => !bound.has(f.name));
}
