import { bech32 } from "@scure/base";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressOfName, BECH32_LENGTH_MAX } from "../core/address.js";
import { type ChainError, plain, SdkErrors, wrap } from "../core/errors.js";
import { addressError, anyPrefixBytes } from "./address-check.js";

/** The checks as they were before the decode memo: bech32 decoded on every call. */
function addressErrorPlain(address: string, prefix: string): ChainError | undefined {
  if (address.trim().length === 0) return plain("empty address string is not allowed");
  let hrp: string;
  let bytes: Uint8Array;
  try {
    const decoded = bech32.decode(address as `${string}1${string}`, BECH32_LENGTH_MAX);
    hrp = decoded.prefix;
    bytes = bech32.fromWords(decoded.words);
  } catch (e) {
    return plain(`decoding bech32 failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (hrp !== prefix) {
    return wrap(SdkErrors.ErrLogic, `hrp does not match bech32 prefix: expected '${prefix}' got '${hrp}'`);
  }
  if (bytes.length === 0) return wrap(SdkErrors.ErrUnknownAddress, "addresses cannot be empty");
  if (bytes.length > 255) return wrap(SdkErrors.ErrUnknownAddress, `address max length is 255, got ${bytes.length}`);
  return undefined;
}

function anyPrefixBytesPlain(address: string): Uint8Array | undefined {
  try {
    return bech32.fromWords(bech32.decode(address as `${string}1${string}`, BECH32_LENGTH_MAX).words);
  } catch {
    return undefined;
  }
}

describe("address checks with the decode memo", () => {
  // Valid addresses of several prefixes and lengths, and their corruptions (a changed character, a cut, a case
  // change), each asked for twice so that the second answer comes from the memo.
  const prefix = fc.constantFrom("chain", "cosmos", "chainvaloper", "a");
  const valid = fc
    .tuple(prefix, fc.uint8Array({ minLength: 0, maxLength: 40 }))
    .map(([p, b]) => bech32.encode(p, bech32.toWords(b), BECH32_LENGTH_MAX));
  const corrupt = fc
    .tuple(valid, fc.nat(), fc.constantFrom("q", "1", "B", "", " "))
    .map(([a, i, c]) => a.slice(0, i % (a.length + 1)) + c + a.slice((i % (a.length + 1)) + 1));
  const address = fc.oneof(valid, corrupt, fc.string(), fc.constant(addressOfName("val1")));

  it("gives the same error, text and bytes as decoding every time", () => {
    fc.assert(
      fc.property(address, prefix, (a, p) => {
        for (let i = 0; i < 2; i++) {
          expect(addressError(a, p)).toEqual(addressErrorPlain(a, p));
          expect(anyPrefixBytes(a)).toEqual(anyPrefixBytesPlain(a));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("hands out bytes a caller may change without changing the next answer", () => {
    const a = addressOfName("val2");
    const first = anyPrefixBytes(a)!;
    const copy = first.slice();
    first.fill(0);
    expect(anyPrefixBytes(a)).toEqual(copy);
  });
});
