import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "@scure/base";
import { BoundedCache } from "./bounded-cache.js";
import { utf8 } from "./bytes.js";

/** Bech32 human-readable prefix for accounts. The reference's `cosmos` is renamed `chain`. */
export const ACCOUNT_PREFIX = "chain";

export const addressFromBytes = (bytes: Uint8Array, prefix = ACCOUNT_PREFIX): string =>
  bech32.encode(prefix, bech32.toWords(bytes));

/** First 20 bytes of sha256(name): module addresses (`authtypes.NewModuleAddress`) and named scenario accounts. */
export const nameToAddressBytes = (name: string): Uint8Array => sha256(utf8(name)).slice(0, 20);

const addressCache = new BoundedCache<string, string>(4096);

/** bech32("chain", sha256(name)[0:20]); memoised (a pure function of the name, asked for on every transaction). */
export function addressOfName(name: string): string {
  return addressCache.getOrCompute(name, (n) => addressFromBytes(nameToAddressBytes(n)));
}

/** The governance module account: `chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax`. */
export const GOV_AUTHORITY = addressOfName("gov");

/**
 * Decodes a bech32 account address; undefined when it is not valid bech32 with the expected prefix. Memoised (a
 * pure function of its arguments, asked for on every balance and deposit access); each call gets its own copy.
 */
export function decodeAddress(address: string, prefix = ACCOUNT_PREFIX): Uint8Array | undefined {
  const key = `${prefix}\u0000${address}`;
  const d = decodedCache.getOrCompute(key, () => decodeUncached(address, prefix) ?? null);
  return d === null ? undefined : d.slice();
}

const DECODED_MAX = 4096;
const decodedCache = new BoundedCache<string, Uint8Array | null>(DECODED_MAX);

function decodeUncached(address: string, prefix: string): Uint8Array | undefined {
  try {
    const { prefix: p, words } = bech32.decode(address as `${string}1${string}`);
    if (p !== prefix) return undefined;
    return bech32.fromWords(words);
  } catch {
    return undefined;
  }
}
