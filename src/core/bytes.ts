/** Byte helpers for store keys: the reference stores keys as raw bytes compared lexicographically. */

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder("utf-8", { fatal: false });

/**
 * The UTF-8 encoding of `s`, as TextEncoder writes it (a lone surrogate becomes U+FFFD). Up to ASCII_FAST_MAX
 * characters, an ASCII string (store keys, denoms, module and plan names) is copied unit by unit: TextEncoder's
 * call costs more than the copy.
 */
export function utf8(s: string): Uint8Array {
  if (s.length > ASCII_FAST_MAX) return textEncoder.encode(s);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) return textEncoder.encode(s);
    out[i] = c;
  }
  return out;
}
/**
 * Up to this many bytes, fromUtf8 checks for ASCII and builds the string itself (TextDecoder's call costs more);
 * up to this many characters, utf8 does the same the other way.
 */
const ASCII_FAST_MAX = 64;

/**
 * UTF-8 decoding of `b` from byte `from` on, as TextDecoder does it (invalid sequences become U+FFFD, a leading BOM
 * is dropped).
 */
export function fromUtf8(b: Uint8Array, from = 0): string {
  if (b.length - from > ASCII_FAST_MAX) return decodeFrom(b, from);
  let s = "";
  for (let i = from; i < b.length; i++) {
    const x = b[i]!;
    if (x >= 0x80) return decodeFrom(b, from);
    s += String.fromCharCode(x);
  }
  return s;
}

const decodeFrom = (b: Uint8Array, from: number): string => textDecoder.decode(from === 0 ? b : b.subarray(from));

/**
 * Up to this many bytes V8 keeps a new typed array's bytes on its own heap; above it every new ArrayBuffer gets an
 * off-heap backing store of its own, which costs about 0.7 µs to make and collect (Node 20, V8 11.3, measured:
 * docs/performance.md "Session 15: byte arrays above 64 bytes"), against about 40 ns below.
 */
const ON_HEAP_MAX_BYTES = 64;
/** allocBytes carves arrays up to this size from a shared slab (as Node's Buffer pool does up to 4 KiB). */
const SLAB_ITEM_MAX_BYTES = 2048;
/** The size of one slab: a slab stays alive while any array carved from it does. */
const SLAB_BYTES = 8192;
let slab = new ArrayBuffer(SLAB_BYTES);
let slabUsed = 0;

/**
 * A new zero-filled Uint8Array of `n` bytes, owned by the caller: no other array returned here or elsewhere shares
 * its bytes. Between 65 and SLAB_ITEM_MAX_BYTES bytes it is a view into a shared slab (its `.buffer` is the slab:
 * read it with `byteOffset`), which costs a tenth of a new ArrayBuffer up to a few hundred bytes; otherwise
 * `new Uint8Array(n)`. For copies that live about as long as a request or a block (a value handed to a caller, an
 * encoding, a response); what a store keeps indefinitely gets a buffer of its own, since one kept array keeps its
 * whole slab alive.
 */
export function allocBytes(n: number): Uint8Array {
  if (n <= ON_HEAP_MAX_BYTES || n > SLAB_ITEM_MAX_BYTES) return new Uint8Array(n);
  if (slabUsed + n > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const out = new Uint8Array(slab, slabUsed, n);
  slabUsed += n;
  return out;
}

/**
 * A copy of `b[from..end)` (as `b.slice(from, end)`), made by allocBytes: what `slice` would put in a new ArrayBuffer
 * goes to the slab. No view of `b` is made (a view of a small array moves its bytes off V8's heap first).
 */
export function copyBytes(b: Uint8Array, from = 0, end = b.length): Uint8Array {
  const n = end - from;
  if (n <= ON_HEAP_MAX_BYTES || n > SLAB_ITEM_MAX_BYTES) return b.slice(from, end);
  const out = allocBytes(n);
  out.set(from === 0 && end === b.length ? b : b.subarray(from, end));
  return out;
}

export function concat(...parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** Lexicographic byte comparison (Go bytes.Compare). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/**
 * `compareBytes(utf8(a), utf8(b))` (Go's `sort.Strings` order, byte order of the UTF-8 encodings) without encoding
 * either string. UTF-8 byte order is code point order, and UTF-16 code unit order agrees with it wherever the first
 * differing units are both below the surrogates (U+D800); anything else (a surrogate, U+E000 and up) falls back to
 * the encodings, where a lone surrogate becomes U+FFFD as TextEncoder writes it.
 */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    return compareBytes(utf8(a), utf8(b));
  }
  // One string is a prefix of the other in code units. Its UTF-8 comes first even when its last unit is a high
  // surrogate the longer one pairs: alone it is U+FFFD (EF BF BD), below any 4-byte sequence (F0 and up).
  if (a.length === b.length) return 0;
  return a.length < b.length ? -1 : 1;
}

export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Lower-case two-digit hex of every byte value. */
const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

export function toHex(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i++) s += HEX_BYTE[b[i]!]!;
  return s;
}

export function fromHex(h: string): Uint8Array {
  const clean = h.replace(/\s+/g, "");
  if (clean.length % 2 !== 0 || /[^0-9a-fA-F]/.test(clean)) throw new Error(`invalid hex: ${h}`);
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** 8-byte big-endian encoding of an unsigned 64-bit integer (the reference's sdk.Uint64ToBigEndian). */
export function be64(n: bigint | number): Uint8Array {
  const out = new Uint8Array(8);
  if (typeof n === "number" && n >= 0 && Number.isSafeInteger(n)) {
    // Heights, times and ids: two 32-bit halves, without a BigInt or a DataView.
    const hi = Math.floor(n / 0x1_0000_0000);
    const lo = n >>> 0;
    out[0] = hi >>> 24;
    out[1] = (hi >>> 16) & 0xff;
    out[2] = (hi >>> 8) & 0xff;
    out[3] = hi & 0xff;
    out[4] = lo >>> 24;
    out[5] = (lo >>> 16) & 0xff;
    out[6] = (lo >>> 8) & 0xff;
    out[7] = lo & 0xff;
    return out;
  }
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, BigInt(n)));
  return out;
}

/** Reads 8 big-endian bytes starting at `offset` as an unsigned 64-bit integer. */
export function readBe64(b: Uint8Array, offset = 0): bigint {
  // In range: from two 32-bit halves (a DataView per call costs more); otherwise DataView's own RangeError.
  if (Number.isInteger(offset) && offset >= 0 && offset + 8 <= b.length) {
    const hi = ((b[offset]! << 24) | (b[offset + 1]! << 16) | (b[offset + 2]! << 8) | b[offset + 3]!) >>> 0;
    const lo = ((b[offset + 4]! << 24) | (b[offset + 5]! << 16) | (b[offset + 6]! << 8) | b[offset + 7]!) >>> 0;
    // Below 2^53 the number is exact.
    return hi < 0x20_0000 ? BigInt(hi * 0x1_0000_0000 + lo) : (BigInt(hi) << 32n) | BigInt(lo);
  }
  return new DataView(b.buffer, b.byteOffset, b.byteLength).getBigUint64(offset);
}

/** The smallest key strictly greater than every key with this prefix, or undefined when none exists (all 0xff). */
export function prefixEnd(prefix: Uint8Array): Uint8Array | undefined {
  const end = prefix.slice();
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i]! += 1;
      return end.slice(0, i + 1);
    }
  }
  return undefined;
}
