import { utf8 } from "../core/bytes.js";
import { err, ok, type Result } from "../core/errors.js";
import { type GoJsonNode, goFoldName, goKindName, parseGoJson } from "../core/go/json.js";
import { archiveEntries, isArchiveUrl } from "./archive.js";

/**
 * Upgrade-info validation of `tx upgrade software-upgrade` (docs/node-api.md §6.3; reference x/upgrade/plan ParseInfo,
 * ValidateFull), over an injectable resolver so that tests and simulations choose what a URL returns. Every message
 * is the reference's text; entries are checked in ascending key order (the reference iterates a Go map).
 */
export interface Resolver {
  /**
   * The content behind `url` (checksum query parameter already verified by the resolver when present), or the
   * download failure's reason (`could not download url "<u>": <reason>` is built by the caller).
   */
  fetch(url: string): Promise<Result<Uint8Array, string>>;
}

export interface PlanInfoOptions {
  /** Not `--no-checksum-required`. */
  readonly enforceChecksum: boolean;
  /** The executable name archives must contain (`bin/<daemon>` or `<daemon>`). */
  readonly daemonName: string;
  readonly resolver: Resolver;
}

/** Go `url.ParseRequestURI` success, as far as it matters here: a scheme, or an absolute path. */
export const isRequestUri = (s: string): boolean => /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s) || s.startsWith("/");

/** The first `checksum` query value of a URL ("" when absent); Go's `url.Query().Get("checksum")`. */
export function checksumParam(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return "";
  const query = url.slice(q + 1).split("#")[0]!;
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const k = eq < 0 ? pair : pair.slice(0, eq);
    if (decode(k) === "checksum") return decode(eq < 0 ? "" : pair.slice(eq + 1)) ?? "";
  }
  return "";
}

function decode(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/** Go `url.Parse` failures that matter for plan URLs: control characters, a missing scheme, bad escapes. */
function urlParseError(u: string): string | undefined {
  if ([...u].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return `parse ${JSON.stringify(u)}: net/url: invalid control character in URL`;
  if (u.startsWith(":")) return `parse ${JSON.stringify(u)}: missing protocol scheme`;
  const beforeQuery = u.split("?")[0]!.split("#")[0]!;
  const bad = /%(?![0-9a-fA-F]{2})(.{0,2})/.exec(beforeQuery);
  if (bad !== null) return `parse ${JSON.stringify(u)}: invalid URL escape ${JSON.stringify(`%${bad[1]}`)}`;
  return undefined;
}

/** plan.ValidateURL. */
export function validateUrl(u: string, mustChecksum: boolean): string | undefined {
  const parse = urlParseError(u);
  if (parse !== undefined) return parse;
  if (mustChecksum && checksumParam(u) === "") return "missing checksum query parameter";
  return undefined;
}

type Binaries = Map<string, string>;

/** json.Unmarshal into `Info{Binaries map[string]string \`json:"binaries"\`}`. */
function decodeInfo(text: string): Result<Binaries, string> {
  const parsed = parseGoJson(utf8(text));
  if (!parsed.ok) return err(parsed.error.message);
  const root = parsed.value;
  const out: Binaries = new Map();
  if (root.kind === "null") return ok(out);
  if (root.kind !== "object") return err(`json: cannot unmarshal ${goKindName(root)} into Go value of type plan.Info`);
  let typeError: string | undefined;
  const note = (e: string) => {
    typeError ??= e;
  };
  for (const e of root.entries) {
    if (goFoldName(e.key) !== "BINARIES") continue;
    const v: GoJsonNode = e.value;
    if (v.kind === "null") continue;
    if (v.kind !== "object") {
      note(
        `json: cannot unmarshal ${goKindName(v)} into Go struct field Info.binaries of type plan.BinaryDownloadURLMap`,
      );
      continue;
    }
    for (const b of v.entries) {
      if (b.value.kind === "string") out.set(b.key, b.value.value);
      else if (b.value.kind === "null") out.set(b.key, "");
      else note(`json: cannot unmarshal ${goKindName(b.value)} into Go struct field Info.binaries of type string`);
    }
  }
  return typeError === undefined ? ok(out) : err(typeError);
}

const OS_ARCH = /[a-zA-Z0-9]+\/[a-zA-Z0-9]+/;

/** ParseInfo + ValidateFull: ok, or the reference's error text. */
export async function validatePlanInfo(info: string, o: PlanInfoOptions): Promise<Result<void, string>> {
  let text = info.trim();
  if (text === "") return err("plan info must not be blank");
  if (isRequestUri(text)) {
    const bad = validateUrl(text, o.enforceChecksum);
    if (bad !== undefined) return err(bad);
    const got = await o.resolver.fetch(text);
    if (!got.ok) return err(`could not download url "${text}": ${got.error}`);
    const body = new TextDecoder().decode(got.value).trim();
    if (body === "") return err(`no content returned by "${text}"`);
    text = body;
  }
  const binaries = decodeInfo(text);
  if (!binaries.ok) return err(`could not parse plan info: ${binaries.error}`);
  const entries = [...binaries.value].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return err(`no "binaries" entries found`);
  for (const [key, url] of entries) {
    if (key !== "any" && !OS_ARCH.test(key)) return err(`invalid os/arch format in key "${key}"`);
    const bad = validateUrl(url, o.enforceChecksum);
    if (bad !== undefined) return err(`invalid url "${url}" in binaries[${key}]: ${bad}`);
  }
  for (const [key, url] of entries) {
    const got = await o.resolver.fetch(url);
    if (!got.ok) return err(`error downloading binary for os/arch ${key}: ${got.error}`);
    if (isArchiveUrl(url)) {
      const names = await archiveEntries(url, got.value);
      if (!names.ok) return err(`error downloading binary for os/arch ${key}: ${names.error}`);
      const d = o.daemonName;
      const wanted = [`bin/${d}`, d, `bin/${d}.exe`, `${d}.exe`];
      if (!names.value.some((n) => wanted.includes(n.replace(/^\.\//, ""))))
        return err(
          `error downloading binary for os/arch ${key}: url "${url}" result does not contain a bin/${d} or ${d} file`,
        );
    }
  }
  return ok(undefined);
}
