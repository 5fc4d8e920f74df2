/**
 * The HTTP side of `chainsim import` (an I/O edge): one GET with a timeout, retried with exponential backoff.
 *
 * - Each attempt is bounded by `timeoutMs` (headers and body together).
 * - Retried: a connection failure, a timeout, a body cut short, HTTP 429, 502, 503, 504; up to `attempts` in all,
 *   waiting `backoffMs`, then twice that, and so on.
 * - Anything else is the answer, whatever its status: the importer's core judges it.
 * Never throws. Counts every attempt (`attemptsMade`) so callers can report what the node saw.
 */
import type { Fetcher, FetchFailure, HttpAnswer } from "../rehearse/reader.js";

export interface HttpOptions {
  readonly timeoutMs: number;
  readonly attempts: number;
  readonly backoffMs: number;
}

export const HTTP_DEFAULTS: HttpOptions = { timeoutMs: 10_000, attempts: 3, backoffMs: 250 };

const RETRIED_STATUS = new Set([429, 502, 503, 504]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Why an attempt failed, in one short phrase (the cause's code when Node gives one). */
function reason(e: unknown, timeoutMs: number): string {
  if (e instanceof Error && (e.name === "TimeoutError" || e.name === "AbortError"))
    return `no answer within ${timeoutMs} ms`;
  const cause = e instanceof Error ? (e.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code !== undefined) return `${cause.message ?? cause.code} (${cause.code})`;
  if (cause?.message !== undefined) return cause.message;
  return e instanceof Error ? e.message : String(e);
}

async function attempt(
  url: string,
  headers: Readonly<Record<string, string>>,
  o: HttpOptions,
): Promise<{ ok: true; value: HttpAnswer } | { ok: false; error: FetchFailure }> {
  let res: Response;
  const signal = AbortSignal.timeout(o.timeoutMs);
  try {
    res = await fetch(url, { headers, signal, redirect: "follow" });
  } catch (e) {
    return { ok: false, error: { kind: "unreachable", message: `unreachable: ${reason(e, o.timeoutMs)}` } };
  }
  try {
    const body = await res.text();
    const h: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      h[k.toLowerCase()] = v;
    });
    return { ok: true, value: { status: res.status, headers: h, body } };
  } catch (e) {
    return { ok: false, error: { kind: "truncated", message: `the answer was cut short: ${reason(e, o.timeoutMs)}` } };
  }
}

export function httpFetcher(o: HttpOptions = HTTP_DEFAULTS): Fetcher & { readonly attemptsMade: () => number } {
  let made = 0;
  const f: Fetcher = async (url, headers) => {
    let last: Awaited<ReturnType<Fetcher>> | undefined;
    for (let i = 0; i < o.attempts; i++) {
      if (i > 0) await sleep(o.backoffMs * 2 ** (i - 1));
      made++;
      last = await attempt(url, headers, o);
      if (last.ok && !RETRIED_STATUS.has(last.value.status)) return last;
    }
    if (!last!.ok && o.attempts > 1)
      return { ok: false, error: { ...last!.error, message: `${last!.error.message}, after ${o.attempts} attempts` } };
    return last!;
  };
  return Object.assign(f, { attemptsMade: () => made });
}
