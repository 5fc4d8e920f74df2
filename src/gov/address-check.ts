import { bech32 } from "@scure/base";
import { BECH32_LENGTH_MAX, DEFAULT_BECH32_PREFIX } from "../core/address.js";
import { type ChainError, errorText, plain, SdkErrors, wrap } from "../core/errors.js";

/**
 * The error the reference's bech32 address codec (`StringToBytes`, then `VerifyAddressFormat`) returns for an account
 * address string, or undefined when it is a valid address with the chain's `prefix`: a plain error for an empty or
 * undecodable string, `ErrLogic` for another prefix, `ErrUnknownAddress` for an empty or over-long address. The decode
 * failure detail comes from the bech32 library and may be worded differently from Go's.
 */
export function addressError(address: string, prefix = DEFAULT_BECH32_PREFIX): ChainError | undefined {
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

/** Why an account address string is rejected (`addressError`'s text), or undefined when it is valid. */
export function addressProblem(address: string, prefix = DEFAULT_BECH32_PREFIX): string | undefined {
  const e = addressError(address, prefix);
  return e === undefined ? undefined : errorText(e);
}

/** Address bytes with any bech32 prefix (operator addresses may use another prefix), or undefined. */
export function anyPrefixBytes(address: string): Uint8Array | undefined {
  try {
    return bech32.fromWords(bech32.decode(address as `${string}1${string}`, BECH32_LENGTH_MAX).words);
  } catch {
    return undefined;
  }
}
