/**
 * A plan's `info` as cosmovisor reads it (reference x/upgrade/plan/info.go `ParseInfo`, `BinaryDownloadURLMap.
 * ValidateBasic`, `ValidateURL` with DAEMON_DOWNLOAD_MUST_HAVE_CHECKSUM; go-getter's `checksum=<type>:<hex>`):
 *
 * 1. The text must be valid JSON (`could not parse plan info`), unless it is a URL, which cosmovisor downloads: that
 *    URL needs its checksum like a binary's.
 * 2. With a `binaries` key: a map with at least one entry (`no "binaries" entries found`); each key `any` or
 *    matching `[a-zA-Z0-9]+/[a-zA-Z0-9]+` (the reference's pattern is unanchored: it only has to occur in the key;
 *    `linux/amd64`, `darwin/arm64`); each value a URL with a `checksum` query parameter `<type>:<hex>`, type one of
 *    md5, sha1, sha256, sha512 with that many hex digits.
 */
const FINDING_KINDS = ["plan", "timing", "cancel-window", "conflict", "info", "window"] as const;

/** One finding of `chainsim preflight` (preflight.ts). */
export interface Finding {
  readonly kind: (typeof FINDING_KINDS)[number];
  readonly message: string;
  /** The reference rule the finding rests on. */
  readonly rule: string;
}

const RULE_JSON = "cosmovisor plan info (x/upgrade/plan ParseInfo): valid JSON";
const RULE_BINARIES =
  "cosmovisor plan info (x/upgrade/plan BinaryDownloadURLMap.ValidateBasic, ValidateURL with checksum)";
const OS_ARCH = /[a-zA-Z0-9]+\/[a-zA-Z0-9]+/;
const HEX_DIGITS: Readonly<Record<string, number>> = { md5: 32, sha1: 40, sha256: 64, sha512: 128 };

const info = (message: string, rule = RULE_BINARIES): Finding => ({ kind: "info", message, rule });

/** The problem of one download URL, or undefined when cosmovisor accepts it. */
export function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "not a valid URL";
  }
  const checksum = url.searchParams.get("checksum");
  if (checksum === null || checksum === "") return "missing checksum query parameter";
  const i = checksum.indexOf(":");
  const type = i < 0 ? checksum : checksum.slice(0, i);
  const digits = HEX_DIGITS[type];
  if (i < 0 || digits === undefined)
    return `checksum "${checksum}" is not <type>:<hex> with type md5, sha1, sha256 or sha512`;
  const hex = checksum.slice(i + 1);
  if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex))
    return `checksum "${checksum}": ${type} needs ${digits} hex digits`;
  return undefined;
}

const isUrl = (s: string): boolean => /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(s);

/** Every finding of an info text (empty info is allowed: the chain does not require one). */
export function infoFindings(text: string): Finding[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  if (isUrl(trimmed)) {
    const p = urlProblem(trimmed);
    return p === undefined ? [] : [info(`info is a URL cosmovisor downloads: ${p}`)];
  }
  let doc: unknown;
  try {
    doc = JSON.parse(trimmed);
  } catch (e) {
    return [
      info(
        `info is not valid JSON: could not parse plan info: ${e instanceof Error ? e.message : String(e)}`,
        RULE_JSON,
      ),
    ];
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc) || !("binaries" in doc)) return [];
  const binaries = (doc as { binaries: unknown }).binaries;
  if (binaries === null || typeof binaries !== "object" || Array.isArray(binaries))
    return [info('info.binaries must be a map of "<os>/<arch>" (or "any") to URL')];
  const entries = Object.entries(binaries);
  if (entries.length === 0) return [info('no "binaries" entries found')];
  const out: Finding[] = [];
  for (const [key, value] of entries) {
    if (key !== "any" && !OS_ARCH.test(key)) out.push(info(`invalid os/arch format in key "${key}"`));
    const p = typeof value === "string" ? urlProblem(value) : "not a string";
    if (p !== undefined) out.push(info(`invalid url ${JSON.stringify(value)} in binaries[${key}]: ${p}`));
  }
  return out;
}
