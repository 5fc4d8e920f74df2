import { describe, expect, it } from "vitest";
import { utf8 } from "../bytes.js";
import { goFoldName, goJsonQuote, goQuoteChar, parseGoJson } from "./json.js";

const syntax = (text: string): string => {
  const r = parseGoJson(utf8(text));
  return r.ok ? "ok" : r.error.message;
};

describe("Go JSON string encoding", () => {
  it("escapes quotes, backslashes and control characters with Go's short forms", () => {
    expect(goJsonQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goJsonQuote("\b\f\n\r\t")).toBe('"\\b\\f\\n\\r\\t"');
    expect(goJsonQuote("\u0001\u001f")).toBe('"\\u0001\\u001f"');
  });
  it("escapes HTML characters and the JS line separators", () => {
    expect(goJsonQuote("<a>&")).toBe('"\\u003ca\\u003e\\u0026"');
    expect(goJsonQuote("\u2028\u2029")).toBe('"\\u2028\\u2029"');
  });
  it("keeps other non-ASCII text, replaces lone surrogates by an escaped U+FFFD", () => {
    expect(goJsonQuote("é😀")).toBe('"é😀"');
    expect(goJsonQuote("\ud800x")).toBe('"\\ufffdx"');
    expect(goJsonQuote("'/")).toBe('"\'/"');
  });
});

describe("Go JSON syntax errors", () => {
  it.each([
    ["", "unexpected end of JSON input"],
    ["   ", "unexpected end of JSON input"],
    ["x", "invalid character 'x' looking for beginning of value"],
    ["{", "unexpected end of JSON input"],
    ['{"a"', "unexpected end of JSON input"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ["{,}", "invalid character ',' looking for beginning of object key string"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ["[1,]", "invalid character ']' looking for beginning of value"],
    ["[1 2]", "invalid character '2' after array element"],
    ["{} {}", "invalid character '{' after top-level value"],
    ["01", "invalid character '1' after top-level value"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ["-", "invalid character ' ' in numeric literal"],
    ["-a", "invalid character 'a' in numeric literal"],
    ["1.", "invalid character ' ' in numeric literal"],
    ["1.x", "invalid character 'x' in numeric literal"],
    ["1e+", "invalid character ' ' in numeric literal"],
    ["tru", "invalid character ' ' in literal true (expecting 'e')"],
    ["nul!", "invalid character '!' in literal null (expecting 'l')"],
    ["fx", "invalid character 'x' in literal false (expecting 'a')"],
    ['"abc', "unexpected end of JSON input"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ["\ufeff{}", "invalid character 'ï' looking for beginning of value"],
    ['{"a":\u0001}', "invalid character '\\x01' looking for beginning of value"],
  ])("%j → %s", (text, message) => {
    expect(syntax(text)).toBe(message);
  });
  it("accepts valid documents with Go's whitespace", () => {
    expect(syntax(' \t\r\n{"a":[1,-0.5e+3,true,false,null,"\\u00e9"]} \n')).toBe("ok");
  });
  it("refuses nesting deeper than 10000 without overflowing the stack", () => {
    expect(syntax("[".repeat(10000) + "]".repeat(10000))).toBe("ok");
    expect(syntax("[".repeat(10001))).toBe("invalid character '[' exceeded max depth");
  });
  it("decodes escapes like Go, including surrogate pairs and lone surrogates", () => {
    const r = parseGoJson(utf8('["\\ud83d\\ude00", "\\ud83dx", "\\ude00", "a\\/b"]'));
    expect(r.ok).toBe(true);
    const s = parseGoJson(utf8('"\\ud83d\\ude00|\\ud83dx|\\ude00|\\ud83d\\u0041|a\\/b"'));
    expect(s.ok && s.value.kind === "string" ? s.value.value : "").toBe("😀|\ufffdx|\ufffd|\ufffdA|a/b");
  });
});

describe("Go quoteChar and name folding", () => {
  it("quotes bytes as Go does", () => {
    expect(goQuoteChar(0x61)).toBe("'a'");
    expect(goQuoteChar(0x22)).toBe("'\"'");
    expect(goQuoteChar(0x5c)).toBe("'\\\\'");
    expect(goQuoteChar(0x00)).toBe("'\\x00'");
    expect(goQuoteChar(0x7f)).toBe("'\\x7f'");
    expect(goQuoteChar(0x85)).toBe("'\\u0085'");
    expect(goQuoteChar(0xa0)).toBe("'\\u00a0'");
    expect(goQuoteChar(0xc3)).toBe("'Ã'");
  });
  it("folds ASCII case and the special characters Go folds to ASCII", () => {
    expect(goFoldName("Height")).toBe("HEIGHT");
    expect(goFoldName("ınfo")).toBe("INFO");
    expect(goFoldName("upgraded_client_ſtate")).toBe("UPGRADED_CLIENT_STATE");
    expect(goFoldName("é")).toBe("é");
  });
});
