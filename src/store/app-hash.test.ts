import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { concat, utf8 } from "../core/bytes.js";
import { appHash, ContentHashStream, contentHash, sortNames } from "./app-hash.js";
import { bytesToLatin1 } from "./mem-backend.js";

const u32 = (n: number) => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
};

describe("app hash encoding", () => {
  it("hashes length-prefixed pairs, also across the 64 KiB staging boundary", () => {
    const entries = Array.from(
      { length: 3000 },
      (_, i) => [utf8(`key${i}`), new Uint8Array(i % 97).fill(i & 0xff)] as const,
    );
    entries.push([utf8("zz-big"), new Uint8Array(200_000).fill(7)]);
    const stream = concat(...entries.flatMap(([k, v]) => [u32(k.length), k, u32(v.length), v]));
    expect(contentHash(entries)).toEqual(sha256(stream));
    expect(contentHash([])).toEqual(sha256(new Uint8Array(0)));
    // A store that fits one chunk is hashed in one shot: the same bytes.
    const few = entries.slice(0, 5);
    expect(contentHash(few)).toEqual(sha256(concat(...few.flatMap(([k, v]) => [u32(k.length), k, u32(v.length), v]))));
  });

  it("hashes the same stream when keys come as latin1 strings and values as tagged bytes, at any size", () => {
    // The multistore's hashing path: keys from the in-memory backend (latin1, after the store prefix), values with
    // their 1-byte tag; every byte value, empty fields, and fields across and beyond the 64 KiB staging buffer.
    const entries = Array.from(
      { length: 2000 },
      (_, i) =>
        [Uint8Array.from({ length: i % 41 }, (_, j) => (i * 7 + j) & 0xff), new Uint8Array(i % 89).fill(i)] as const,
    );
    entries.push(
      [new Uint8Array(70_000).fill(0xfe), new Uint8Array(0)],
      [new Uint8Array(0), new Uint8Array(90_000).fill(3)],
    );
    const prefix = "\u0002st\u0000\u0001";
    const st = new ContentHashStream();
    for (const [k, v] of entries) {
      st.latin1(prefix + bytesToLatin1(k), prefix.length);
      const tagged = new Uint8Array(v.length + 1);
      tagged[0] = 1;
      tagged.set(v, 1);
      st.bytes(tagged, 1);
    }
    expect(st.digest()).toEqual(contentHash(entries));
    const stream = concat(...entries.flatMap(([k, v]) => [u32(k.length), k, u32(v.length), v]));
    expect(contentHash(entries)).toEqual(sha256(stream));
  });

  it("hashes store names in byte order with their content hashes", () => {
    const h1 = new Uint8Array(32).fill(1);
    const h2 = new Uint8Array(32).fill(2);
    const expected = sha256(concat(u32(1), utf8("a"), h1, u32(2), utf8("ab"), h2));
    expect(
      appHash(
        new Map([
          ["ab", h2],
          ["a", h1],
        ]),
      ),
    ).toEqual(expected);
  });

  it("orders names by UTF-8 bytes, not UTF-16 units", () => {
    expect(sortNames(["\u{1F600}", "\uFF61", "b"])).toEqual(["b", "\uFF61", "\u{1F600}"]);
  });
});
