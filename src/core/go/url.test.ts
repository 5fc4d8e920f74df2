import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromUtf8 } from "../bytes.js";
import { clean } from "./filepath.js";
import { latin1Bytes } from "./strconv.js";
import { cleanPath, escapePath, parseQuery, parseRequestTarget, text, urlUnescape } from "./url.js";

describe("Go url unescape", () => {
  it("decodes escapes and reports malformed ones with at most 3 bytes", () => {
    expect(urlUnescape("a%2Fb%e9", "path")).toEqual({ ok: true, value: "a/b\u00e9" });
    expect(urlUnescape("%zz", "path")).toEqual({ ok: false, error: 'invalid URL escape "%zz"' });
    expect(urlUnescape("ab%2", "path")).toEqual({ ok: false, error: 'invalid URL escape "%2"' });
    expect(urlUnescape("%", "query")).toEqual({ ok: false, error: 'invalid URL escape "%"' });
  });
  it("turns + into a space only in query mode", () => {
    expect(urlUnescape("a+b", "path")).toEqual({ ok: true, value: "a+b" });
    expect(urlUnescape("a+b", "query")).toEqual({ ok: true, value: "a b" });
  });
  it("gives what the character-by-character decoder gives, with or without something to decode", () => {
    /** The decoder without the nothing-to-decode shortcut. */
    const reference = (s: string, mode: "path" | "query"): { ok: boolean; value?: string } => {
      let out = "";
      for (let i = 0; i < s.length; ) {
        if (s[i] === "%") {
          const hex = s.slice(i + 1, i + 3);
          if (!/^[0-9a-fA-F]{2}$/.test(hex)) return { ok: false };
          out += String.fromCharCode(Number.parseInt(hex, 16));
          i += 3;
        } else {
          out += s[i] === "+" && mode === "query" ? " " : s[i];
          i++;
        }
      }
      return { ok: true, value: out };
    };
    const s = fc
      .array(fc.constantFrom("a", "/", "+", "%", "2", "F", "z", "\u00e9", " "), { maxLength: 10 })
      .map((a) => a.join(""));
    fc.assert(
      fc.property(s, fc.constantFrom("path" as const, "query" as const), (x, mode) => {
        const r = urlUnescape(x, mode);
        const ref = reference(x, mode);
        expect(r.ok).toBe(ref.ok);
        if (r.ok) expect(r.value).toBe(ref.value);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("Go url.ParseQuery", () => {
  it("keeps repeated keys in order", () => {
    const q = parseQuery("a=1&b=2&a=3&&c");
    expect(q.error).toBeUndefined();
    expect([...q.values]).toEqual([
      ["a", ["1", "3"]],
      ["b", ["2"]],
      ["c", [""]],
    ]);
  });
  it("rejects semicolons, and that error replaces an earlier escape error", () => {
    expect(parseQuery("a=1;b=2").error).toBe("invalid semicolon separator in query");
    expect(parseQuery("x=%zz&y;z").error).toBe("invalid semicolon separator in query");
    expect(parseQuery("y;z&x=%zz").error).toBe("invalid semicolon separator in query");
  });
  it("keeps the first escape error and still parses the rest", () => {
    const q = parseQuery("a=%zz&b=%yy&c=1");
    expect(q.error).toBe('invalid URL escape "%zz"');
    expect(q.values.get("c")).toEqual(["1"]);
  });
});

describe("request targets and path cleaning", () => {
  it("parses origin-form, asterisk and absolute-form targets", () => {
    expect(parseRequestTarget("/a%2Fb?x=1")).toEqual({
      ok: true,
      value: { path: "/a/b", rawQuery: "x=1", forceQuery: false, origin: "" },
    });
    expect(parseRequestTarget("/a?")).toEqual({
      ok: true,
      value: { path: "/a", rawQuery: "", forceQuery: true, origin: "" },
    });
    expect(parseRequestTarget("*")).toEqual({
      ok: true,
      value: { path: "*", rawQuery: "", forceQuery: false, origin: "" },
    });
    expect(parseRequestTarget("http://h:1/x//y")).toEqual({
      ok: true,
      value: { path: "/x//y", rawQuery: "", forceQuery: false, origin: "http://h:1" },
    });
  });
  it("rejects relative targets and malformed path escapes, not malformed query escapes", () => {
    expect(parseRequestTarget("x").ok).toBe(false);
    expect(parseRequestTarget("/a%zz").ok).toBe(false);
    expect(parseRequestTarget("/a?%zz").ok).toBe(true);
  });
  it.each([
    ["//a", "/a"],
    ["/a/./b", "/a/b"],
    ["/a/../b", "/b"],
    ["/a/", "/a/"],
    ["/..", "/"],
    ["", "/"],
    ["/a//", "/a/"],
    ["*", "/*"],
    ["/a/b/..", "/a"],
  ])("cleans %j to %j", (p, c) => {
    expect(cleanPath(p)).toBe(c);
  });
  it("escapes paths like Go's EscapedPath", () => {
    expect(escapePath("/a b*!$&+,:;=@~")).toBe("/a%20b%2A%21$&+,:;=@~");
    expect(escapePath("/\u00e9?#")).toBe("/%E9%3F%23");
  });
});

describe("cleanPath's already-clean shortcut", () => {
  /** cleanPath without the shortcut: path.Clean on the rooted path, keeping a trailing slash. */
  const reference = (p: string): string => {
    if (p === "") return "/";
    const rooted = p.startsWith("/") ? p : `/${p}`;
    const np = clean(rooted);
    return rooted.endsWith("/") && np !== "/" ? `${np}/` : np;
  };
  it("gives what path.Clean gives, over paths of slashes, dots and letters", () => {
    const path = fc
      .array(fc.constantFrom("/", ".", "..", "a", "b.", ".c", "%2F"), { maxLength: 12 })
      .map((a) => a.join(""));
    fc.assert(
      fc.property(path, (p) => {
        expect(cleanPath(p)).toBe(reference(p));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("byte strings as bytes and text", () => {
  /** The definitions the loops replaced. */
  const bytesOf = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
  it("latin1Bytes keeps the low byte of each code unit; text decodes the bytes as UTF-8 (ASCII as it is)", () => {
    const s = fc.oneof(
      fc.string({ unit: "binary", maxLength: 20 }),
      fc.string({ maxLength: 20 }),
      fc.string({ unit: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)), maxLength: 20 }),
    );
    fc.assert(
      fc.property(s, (b) => {
        expect(latin1Bytes(b)).toEqual(bytesOf(b));
        expect(text(b)).toBe(fromUtf8(bytesOf(b)));
      }),
      { numRuns: 2000 },
    );
  });
});
