/**
 * The bounded reader of one node (docs/profile-format.md "Reading a node"): every request `chainsim import` makes goes
 * through here, over an injected fetcher, so this layer stays deterministic and the I/O edge owns sockets, timeouts,
 * retries and backoff.
 *
 * Steps of one read:
 * 1. Count the request against the cap (`maxRequests`); past it the import fails (`request-cap`).
 * 2. Fetch (the edge retries and times out); a transport failure is `unreachable` (or `truncated`).
 * 3. Parse the body as JSON; a body that is not JSON is `malformed` (a 2xx answer) or `not-a-node` (anything else).
 * 4. RPC: unwrap JSON-RPC 2.0 (`result`, or `error` → `rpc-error`); REST: check the height header against the height
 *    the import is pinned to (a lower one is `went-backwards`).
 *
 * Failures are typed data (`ImportFailure`), thrown inside the import as `ImportAbort` and returned by
 * `importProfile` as a Result: nothing escapes as an exception.
 */
import type { NamespaceNames } from "../core/namespace.js";

/** One HTTP answer as the edge delivers it (header names lower-case). */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A transport failure after the edge's retries: no answer, or an answer cut short. */
export interface FetchFailure {
  readonly kind: "unreachable" | "truncated";
  readonly message: string;
}

/** GETs a URL with request headers. The edge bounds it (timeout, retries with backoff) and never throws. */
export type Fetcher = (
  url: string,
  headers: Readonly<Record<string, string>>,
) => Promise<{ ok: true; value: HttpAnswer } | { ok: false; error: FetchFailure }>;

export const FAILURE_KINDS = [
  "unreachable",
  "truncated",
  "not-a-node",
  "malformed",
  "rpc-error",
  "pagination-loop",
  "went-backwards",
  "too-many-validators",
  "request-cap",
  "no-history",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Why an import stopped: the endpoint (a full URL) and what was wrong with it. */
export interface ImportFailure {
  readonly kind: FailureKind;
  readonly endpoint: string;
  readonly message: string;
}

/** Carries an ImportFailure out of the import's steps to `importProfile`, which returns it as data. */
export class ImportAbort extends Error {
  constructor(readonly failure: ImportFailure) {
    super(`${failure.endpoint}: ${failure.message}`);
  }
}

export const fail = (kind: FailureKind, endpoint: string, message: string): never => {
  throw new ImportAbort({ kind, endpoint, message });
};

export interface ReaderOptions {
  readonly rest: string;
  readonly rpc: string;
  readonly names: NamespaceNames;
  readonly fetch: Fetcher;
  /** The most requests one import may make. */
  readonly maxRequests: number;
  /** Called after every request with the count so far. */
  readonly onRequest?: (count: number) => void;
}

export type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first bytes of a body, for messages. */
const excerpt = (body: string): string => JSON.stringify(body.length > 60 ? `${body.slice(0, 60)}…` : body);

const query = (params: Readonly<Record<string, string | number>>): string => {
  const parts = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length === 0 ? "" : `?${parts.join("&")}`;
};

export class NodeReader {
  #requests = 0;
  /** The height REST queries are pinned to (set once `status` is read). */
  pinnedHeight: number | undefined;

  constructor(readonly o: ReaderOptions) {}

  get requests(): number {
    return this.#requests;
  }

  async #get(url: string, headers: Record<string, string>): Promise<HttpAnswer> {
    if (this.#requests >= this.o.maxRequests)
      fail("request-cap", url, `the import's cap of ${this.o.maxRequests} requests is reached`);
    const count = ++this.#requests;
    const r = await this.o.fetch(url, headers);
    this.o.onRequest?.(count);
    if (!r.ok) return fail(r.error.kind, url, r.error.message);
    return r.value;
  }

  #json(url: string, a: HttpAnswer, what: string): Json {
    try {
      return JSON.parse(a.body) as Json;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      const type = a.headers["content-type"] ?? "";
      if (a.status >= 200 && a.status < 300 && type.includes("json"))
        return fail("malformed", url, `malformed JSON (${why})`);
      const shown = `${type === "" ? "" : `${type}, `}${excerpt(a.body)}`;
      return fail("not-a-node", url, `HTTP ${a.status} with a body that is not JSON (${shown}): not ${what}`);
    }
  }

  /** A CometBFT RPC method over the URI form (`GET /<method>?...`): its `result`. */
  async rpc(method: string, params: Readonly<Record<string, string | number>> = {}): Promise<Record<string, Json>> {
    const url = `${this.o.rpc.replace(/\/+$/, "")}/${method}${query(params)}`;
    const a = await this.#get(url, {});
    const notRpc = "a CometBFT RPC endpoint";
    const v = this.#json(url, a, notRpc);
    if (!isObject(v) || v.jsonrpc !== "2.0")
      return fail("not-a-node", url, `HTTP ${a.status}, an answer that is not JSON-RPC 2.0: not ${notRpc}`);
    if (isObject(v.error)) {
      const e = v.error;
      const data = typeof e.data === "string" && e.data !== "" ? `: ${e.data}` : "";
      return fail("rpc-error", url, `RPC error ${String(e.code)} ${String(e.message)}${data}`);
    }
    if (!isObject(v.result)) return fail("malformed", url, "JSON-RPC answer without a result object");
    return v.result;
  }

  /**
   * A REST (grpc-gateway) route of the namespace, pinned to `pinnedHeight` through the height header. Returns
   * undefined for 404 and 501 (not served) when `optional`; any other non-2xx is `not-a-node`.
   */
  async rest(
    path: string,
    params: Readonly<Record<string, string | number>> = {},
    optional = false,
  ): Promise<Record<string, Json> | undefined> {
    const names = this.o.names;
    const url = `${this.o.rest.replace(/\/+$/, "")}${names.rest(path)}${query(params)}`;
    const headers = this.pinnedHeight === undefined ? {} : { [names.heightHeader]: String(this.pinnedHeight) };
    const a = await this.#get(url, headers);
    if (optional && (a.status === 404 || a.status === 501)) return undefined;
    const what = `a chain node's REST endpoint in the ${names.namespace} namespace (is --namespace right?)`;
    if (a.status < 200 || a.status >= 300) {
      const v = tryJson(a.body);
      const m = isObject(v) && typeof v.message === "string" ? `: ${v.message}` : ` (${excerpt(a.body)})`;
      return fail("not-a-node", url, `HTTP ${a.status}${m}: not ${what}`);
    }
    const v = this.#json(url, a, what);
    if (!isObject(v)) return fail("not-a-node", url, `an answer that is not a JSON object: not ${what}`);
    this.#checkHeight(url, a);
    return v;
  }

  /** The answer's height header must not be below the pinned height (the node's state went backwards). */
  #checkHeight(url: string, a: HttpAnswer): void {
    const h = this.o.names.heightHeader;
    const text = a.headers[h] ?? a.headers[`grpc-metadata-${h}`];
    if (text === undefined || this.pinnedHeight === undefined) return;
    const served = Number(text.split(",")[0]);
    if (Number.isSafeInteger(served) && served < this.pinnedHeight)
      fail("went-backwards", url, `${h} ${served} is below the import's height ${this.pinnedHeight}`);
  }
}

function tryJson(body: string): Json {
  try {
    return JSON.parse(body) as Json;
  } catch {
    return undefined;
  }
}
