import { bech32 } from "@scure/base";
import { BECH32_LENGTH_MAX, DEFAULT_BECH32_PREFIX } from "../core/address.js";
import { BoundedCache } from "../core/bounded-cache.js";
import { type ChainError, errorText, plain, SdkErrors, wrap } from "../core/errors.js";

/** A bech32 string decoded with any prefix, or why it does not decode (the library's message). */
type Bech32Decoded =
  | { readonly ok: true; readonly hrp: string; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly message: string };

const DECODED_MAX = 4096;
/** Memo of `decodeUncached` (a pure function of the string, asked for on every gov message and key). */
const decodedCache = new BoundedCache<string, Bech32Decoded>(DECODED_MAX);

function decodeUncached(address: string): Bech32Decoded {
  try {
    const decoded = bech32.decode(address as `${string}1${string}`, BECH32_LENGTH_MAX);
    return { ok: true, hrp: decoded.prefix, bytes: bech32.fromWords(decoded.words) };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/** The decoded string, shared: callers copy the bytes before handing them out. */
const decodedOf = (address: string): Bech32Decoded => decodedCache.getOrCompute(address, decodeUncached);

/**
 * The error the reference's bech32 address codec (`StringToBytes`, then `VerifyAddressFormat`) returns for an account
 * address string, or undefined when it is a valid address with the chain's `prefix`: a plain error for an empty or
 * undecodable string, `ErrLogic` for another prefix, `ErrUnknownAddress` for an empty or over-long address. The decode
 * failure detail comes from the bech32 library and may be worded differently from Go's.
 */
export function addressError(address: string, prefix = DEFAULT_BECH32_PREFIX): ChainError | undefined {
  if (address.trim().length === 0) return plain("empty address string is not allowed");
  const decoded = decodedOf(address);
  if (!decoded.ok) return plain(`decoding bech32 failed: ${decoded.message}`);
  const { hrp, bytes } = decoded;
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
  const decoded = decodedOf(address);
  return decoded.ok ? decoded.bytes.slice() : undefined;
}
