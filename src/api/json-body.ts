import { type DescMessage, fromJson, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { err, ok, type PlainError, plain, type Result } from "../core/errors.js";

/**
 * Request bodies as the reference's gateway decodes them (gogo `jsonpb` behind grpc-gateway), one rule for every
 * JSON body the node accepts:
 * 1. A key that appears twice in one object: the LAST occurrence wins. jsonpb reads each object into a Go
 *    `map[string]json.RawMessage` first, and Go's `encoding/json` overwrites a map entry on a repeated key. (The
 *    scenario loader is stricter on purpose: a scenario file is chainsim's own format, where a repeated key is always
 *    a mistake; see docs/scenario-format.md.)
 * 2. A field given under both its proto name and its lowerCamel JSON name (`tx_bytes` and `txBytes`): the PROTO name
 *    wins whatever the order, because jsonpb looks the proto name up first and consumes it.
 * 3. Then proto-JSON decoding (protobuf-es `fromJson`); a failure is the caller's 400 with its message.
 *
 * `text` must already be bounded by the caller (the body limit); nesting depth is bounded by JSON.parse's own stack
 * guard, which throws a RangeError that this turns into an error result like any other malformed body.
 */
export function gatewayBodyFromJson<D extends DescMessage>(desc: D, text: string): Result<MessageShape<D>, PlainError> {
  try {
    const value = JSON.parse(text) as JsonValue;
    return ok(fromJson(desc, preferProtoNames(desc, value, DEPTH_MAX)));
  } catch (e) {
    return err(plain(e instanceof Error ? e.message : String(e)));
  }
}

/** Nesting limit of the name pass (the request messages are a few levels deep; deeper input is left to fromJson). */
const DEPTH_MAX = 64;

/** Rule 2 over a message's JSON object and, recursively, its message-typed fields, lists and map values. */
function preferProtoNames(desc: DescMessage, value: JsonValue, depthLeft: number): JsonValue {
  if (depthLeft === 0 || value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const out: { [k: string]: JsonValue } = { ...value };
  for (const field of desc.fields) {
    if (field.jsonName !== field.name && field.name in out && field.jsonName in out) delete out[field.jsonName];
    const key = field.name in out ? field.name : field.jsonName;
    const v = out[key];
    if (v === undefined) continue;
    if (field.fieldKind === "message") out[key] = preferProtoNames(field.message, v, depthLeft - 1);
    else if (field.fieldKind === "list" && field.listKind === "message" && Array.isArray(v))
      out[key] = v.map((x) => preferProtoNames(field.message, x, depthLeft - 1));
    else if (field.fieldKind === "map" && field.mapKind === "message" && v !== null && typeof v === "object")
      out[key] = Object.fromEntries(
        Object.entries(v).map(([k, x]) => [k, preferProtoNames(field.message, x as JsonValue, depthLeft - 1)]),
      );
  }
  return out;
}
