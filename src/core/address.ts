import { sha256 } from "@noble/hashes/sha2.js";
import { bech32 } from "@scure/base";
import { BoundedCache } from "./bounded-cache.js";
import { utf8 } from "./bytes.js";

/**
 * Bech32 addresses (BIP-173; the reference's `types/bech32` and `sdk.Config`'s prefixes).
 *
 * 1. The account prefix is a chain-wide setting (scenario and devnet genesis `chain.bech32Prefix`, `chainsim serve
 *    --bech32-prefix`); the reference's `cosmos` is renamed `chain` by default. Every function here takes it as a
 *    parameter; the default below is explicit, and callers thread the configured one from the chain's config.
 * 2. Validator operator and consensus addresses use the account prefix + `valoper` / `valcons`, as the reference's
 *    `sdk.Config` derives them (`Bech32PrefixValAddr = prefix + "valoper"`).
 * 3. Decoding allows strings up to 1023 characters, as the reference's `bech32.DecodeAndConvert` (`Decode(bech,
 *    1023)`), so a long prefix still round-trips; encoding has the same bound.
 */

/** The default account prefix: the reference's `cosmos`, renamed `chain`. */
export const DEFAULT_BECH32_PREFIX = "chain";

/** The reference's decode bound (`bech32.Decode(bech, 1023)` in `types/bech32/bech32.go`). */
export const BECH32_LENGTH_MAX = 1023;
/** BIP-173: the human-readable part has 1 to 83 characters. */
const HRP_LENGTH_MAX = 83;

/**
 * Why `prefix` is not a usable bech32 human-readable part, or undefined: BIP-173 allows 1–83 US-ASCII characters in
 * the range 33–126; addresses are written in lowercase (an uppercase HRP could not be told from a mixed-case string).
 */
export function bech32PrefixProblem(prefix: string): string | undefined {
  if (prefix.length === 0) return "a bech32 prefix must not be empty";
  if (prefix.length > HRP_LENGTH_MAX)
    return `a bech32 prefix has at most ${HRP_LENGTH_MAX} characters, got ${prefix.length}`;
  for (const ch of prefix) {
    const c = ch.codePointAt(0)!;
    if (c < 33 || c > 126) return `a bech32 prefix holds only US-ASCII characters 33-126, got ${JSON.stringify(ch)}`;
    if (ch >= "A" && ch <= "Z") return `a bech32 prefix must be lowercase, got ${JSON.stringify(prefix)}`;
  }
  return undefined;
}

/** The validator operator prefix of an account prefix (`chainvaloper`, `cosmosvaloper`). */
export const valoperPrefix = (prefix: string): string => `${prefix}valoper`;
/** The consensus address prefix of an account prefix (`chainvalcons`, `cosmosvalcons`). */
export const valconsPrefix = (prefix: string): string => `${prefix}valcons`;

export const addressFromBytes = (bytes: Uint8Array, prefix = DEFAULT_BECH32_PREFIX): string =>
  bech32.encode(prefix, bech32.toWords(bytes), BECH32_LENGTH_MAX);

/** First 20 bytes of sha256(name): module addresses (`authtypes.NewModuleAddress`) and named scenario accounts. */
export const nameToAddressBytes = (name: string): Uint8Array => sha256(utf8(name)).slice(0, 20);

const addressCache = new BoundedCache<string, string>(4096);

/** bech32(prefix, sha256(name)[0:20]); memoised (a pure function of its arguments, asked for on every transaction). */
export function addressOfName(name: string, prefix = DEFAULT_BECH32_PREFIX): string {
  return addressCache.getOrCompute(`${prefix}\u0000${name}`, () => addressFromBytes(nameToAddressBytes(name), prefix));
}

/**
 * The governance module account under `prefix`, the authority of x/upgrade and x/gov messages:
 * `chain10d07y265gmmuvt4z0w9aw880jnsr700j0q8wax`, and with `cosmos` the reference's well-known
 * `cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn`.
 */
export const govAuthority = (prefix = DEFAULT_BECH32_PREFIX): string => addressOfName("gov", prefix);

/**
 * Decodes a bech32 account address; undefined when it is not valid bech32 with the expected prefix. Memoised (a
 * pure function of its arguments, asked for on every balance and deposit access); each call gets its own copy.
 */
export function decodeAddress(address: string, prefix = DEFAULT_BECH32_PREFIX): Uint8Array | undefined {
  const key = `${prefix}\u0000${address}`;
  const d = decodedCache.getOrCompute(key, () => decodeUncached(address, prefix) ?? null);
  return d === null ? undefined : d.slice();
}

const DECODED_MAX = 4096;
const decodedCache = new BoundedCache<string, Uint8Array | null>(DECODED_MAX);

function decodeUncached(address: string, prefix: string): Uint8Array | undefined {
  try {
    const { prefix: p, words } = bech32.decode(address as `${string}1${string}`, BECH32_LENGTH_MAX);
    if (p !== prefix) return undefined;
    return bech32.fromWords(words);
  } catch {
    return undefined;
  }
}
