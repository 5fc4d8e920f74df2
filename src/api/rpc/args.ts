import { base64, hex } from "@scure/base";

/**
 * A CometBFT v0.38 RPC method's arguments and failures (rpc/jsonrpc/server: http_json_handler.go
 * `jsonParamsToArgs`, http_uri_handler.go `httpParamsToArgs`), shared by the method table (methods/) and the
 * transports (handler.ts).
 *
 * - `Args` reads one named argument as CometBFT converts it; a value that does not convert throws `ParamError`
 *   (`error converting <json|http> params to arguments: <name>: ...`), which the transports answer -32602.
 * - `internal(message)` throws `MethodError`, a method's own failure, answered -32603 with `message` as `data`.
 */
export type Json = unknown;

export class MethodError extends Error {}
export class ParamError extends Error {}

/** Fails the running method with CometBFT's text (-32603 `Internal error`, the text in `data`). */
export const internal = (message: string): never => {
  throw new MethodError(message);
};

/** One argument as received: a JSON value (JSON-RPC) or the raw text of a URI query parameter. */
export type Arg = { readonly kind: "json"; readonly value: Json } | { readonly kind: "uri"; readonly text: string };

/** The named arguments of one call, converted on read as CometBFT converts them. */
export class Args {
  constructor(
    private readonly m: ReadonlyMap<string, Arg>,
    private readonly source: "json" | "http",
  ) {}

  #fail(name: string, detail: string): never {
    throw new ParamError(`error converting ${this.source} params to arguments: ${name}: ${detail}`);
  }

  int(name: string): bigint | undefined {
    const a = this.m.get(name);
    if (a === undefined) return undefined;
    let text: string;
    if (a.kind === "json") {
      if (a.value === null) return undefined;
      if (typeof a.value === "number" && Number.isSafeInteger(a.value)) return BigInt(a.value);
      if (typeof a.value !== "string") this.#fail(name, `expected an integer, got ${JSON.stringify(a.value)}`);
      text = a.value;
    } else text = a.text.replace(/^"(.*)"$/, "$1");
    if (!/^-?[0-9]{1,19}$/.test(text)) this.#fail(name, `invalid integer ${JSON.stringify(text)}`);
    const v = BigInt(text);
    if (v > 0x7fffffffffffffffn || v < -0x8000000000000000n) this.#fail(name, `value out of range ${text}`);
    return v;
  }

  bool(name: string): boolean {
    const a = this.m.get(name);
    if (a === undefined) return false;
    const v = a.kind === "json" ? a.value : a.text;
    if (v === true || v === "true") return true;
    if (v === false || v === "false" || v === null) return false;
    return this.#fail(name, `expected a bool, got ${JSON.stringify(v)}`);
  }

  string(name: string): string {
    const a = this.m.get(name);
    if (a === undefined) return "";
    if (a.kind === "json") {
      if (a.value === null) return "";
      if (typeof a.value !== "string") this.#fail(name, `expected a string, got ${JSON.stringify(a.value)}`);
      return a.value;
    }
    const m = /^"(.*)"$/s.exec(a.text);
    if (m === null) this.#fail(name, `invalid string arg ${JSON.stringify(a.text)}: must be quoted`);
    return m[1]!;
  }

  /** []byte: base64 in JSON-RPC; `0x<hex>` or a quoted string in a URI. */
  bytes(name: string, jsonEncoding: "base64" | "hex"): Uint8Array {
    const a = this.m.get(name);
    if (a === undefined) return new Uint8Array();
    const decode = (text: string, enc: "base64" | "hex"): Uint8Array => {
      try {
        return enc === "hex" ? hex.decode(text.toLowerCase()) : base64.decode(text);
      } catch {
        return this.#fail(name, `invalid ${enc} ${JSON.stringify(text.slice(0, 80))}`);
      }
    };
    if (a.kind === "json") {
      if (a.value === null) return new Uint8Array();
      if (typeof a.value !== "string") this.#fail(name, `expected a string, got ${JSON.stringify(a.value)}`);
      return decode(a.value, jsonEncoding);
    }
    if (/^0x/i.test(a.text)) return decode(a.text.slice(2), "hex");
    const q = /^"(.*)"$/s.exec(a.text);
    if (q === null) this.#fail(name, `invalid bytes arg ${JSON.stringify(a.text)}: use 0x<hex> or a quoted string`);
    return new TextEncoder().encode(q[1]!);
  }
}
