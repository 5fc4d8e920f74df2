import { bech32 } from "@scure/base";
import { DEFAULT_BECH32_PREFIX } from "../core/address.js";

/**
 * Why an account address string is rejected, in the words of the reference's bech32 address codec
 * (`StringToBytes`), or undefined when it is a valid address with the chain's `prefix`. The decode failure detail comes from the
 * bech32 library and may be worded differently from Go's.
 */
export function addressProblem(address: string, prefix = DEFAULT_BECH32_PREFIX): string | undefined {
  if (address.trim().length === 0) return "empty address string is not allowed";
  let hrp: string;
  let bytes: Uint8Array;
  try {
    const decoded = bech32.decode(address as `${string}1${string}`);
    hrp = decoded.prefix;
    bytes = bech32.fromWords(decoded.words);
  } catch (e) {
    return `decoding bech32 failed: ${e instanceof Error ? e.message : String(e)}`;
  }
  if (hrp !== prefix) {
    return `hrp does not match bech32 prefix: expected '${prefix}' got '${hrp}': internal logic error`;
  }
  if (bytes.length === 0) return "addresses cannot be empty: unknown address";
  if (bytes.length > 255) return `address max length is 255, got ${bytes.length}: unknown address`;
  return undefined;
}

/** Address bytes with any bech32 prefix (operator addresses may use another prefix), or undefined. */
export function anyPrefixBytes(address: string): Uint8Array | undefined {
  try {
    return bech32.fromWords(bech32.decode(address as `${string}1${string}`).words);
  } catch {
    return undefined;
  }
}
