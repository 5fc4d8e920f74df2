import { type DescMessage, type Message, toBinary } from "@bufbuild/protobuf";
import type fc from "fast-check";
import { NODE_JSON } from "../../src/api/node-backend.js";
import { messageArbitrary } from "./proto-arbitrary.js";

/**
 * Messages as the node holds them, for the properties of the protobuf and JSON fast paths (each against its
 * protobuf-es reference): one vocabulary for "a random message of a node type" and "its bytes as protobuf-es writes
 * them".
 */

/** Every message type the node's registry resolves, so every type an Any may pack. */
export const NODE_ANY_TYPES: readonly DescMessage[] = [...NODE_JSON.registry!].filter(
  (t): t is DescMessage => t.kind === "message",
);

/** Random messages of `desc`, their Any fields packing any of NODE_ANY_TYPES (or an unresolvable URL), 3 deep. */
export function nodeMessageArbitrary(desc: DescMessage): fc.Arbitrary<Message> {
  return messageArbitrary(desc, { anyTypes: NODE_ANY_TYPES, registry: NODE_JSON.registry!, depth: 3 });
}

/** protobuf-es's bytes of `msg`; undefined for a message it will not write (a string with a lone surrogate). */
export function protobufEsBytes(desc: DescMessage, msg: Message): Uint8Array | undefined {
  try {
    return toBinary(desc, msg);
  } catch {
    return undefined;
  }
}
