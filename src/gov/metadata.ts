import { BoundedCache } from "../core/bounded-cache.js";

/**
 * The reference decodes proposal metadata with Go's `json.Unmarshal` into `{title, authors, summary, details,
 * proposal_forum_url, vote_option_context}`. When that succeeds, title and summary must equal the message's;
 * when it fails (not JSON, not an object, a field of the wrong type) the metadata is accepted as free text.
 * Go matches keys case-insensitively (an exact match wins) and decodes `null` as "no fields".
 * Returns the decoded title and summary, or undefined when the metadata does not decode.
 */
export function decodeProposalMetadata(metadata: string): { title: string; summary: string } | undefined {
  if (metadata.length > METADATA_MEMO_CHARS_MAX) return decodeUncached(metadata);
  const d = decodedCache.getOrCompute(metadata, (m) => decodeUncached(m) ?? null);
  return d === null ? undefined : { title: d.title, summary: d.summary };
}

const DECODED_MAX = 1024;
const METADATA_MEMO_CHARS_MAX = 1024;
/**
 * Memo of `decodeUncached`, a pure function of the string: every MsgSubmitProposal with metadata asks, and the
 * harness submits a few distinct metadata strings many times. Only strings up to METADATA_MEMO_CHARS_MAX are
 * held (the default `max_metadata_len` is 255), so the table's size stays small whatever is submitted.
 */
const decodedCache = new BoundedCache<string, { readonly title: string; readonly summary: string } | null>(DECODED_MAX);

/** decodeProposalMetadata without the memo (exported for its equivalence test). */
export function decodeUncached(metadata: string): { title: string; summary: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(metadata);
  } catch {
    return undefined;
  }
  if (parsed === null) return { title: "", summary: "" };
  if (typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  const obj = parsed as Record<string, unknown>;
  const field = (name: string): unknown => {
    if (Object.hasOwn(obj, name)) return obj[name];
    const key = Object.keys(obj).find((k) => k.toLowerCase() === name);
    return key === undefined ? undefined : obj[key];
  };
  const strings = ["title", "summary", "details", "proposal_forum_url", "vote_option_context"];
  for (const name of strings) {
    const v = field(name);
    if (v !== undefined && v !== null && typeof v !== "string") return undefined;
  }
  const authors = field("authors");
  if (authors !== undefined && authors !== null) {
    if (!Array.isArray(authors) || authors.some((a) => a !== null && typeof a !== "string")) return undefined;
  }
  const title = field("title");
  const summary = field("summary");
  return { title: typeof title === "string" ? title : "", summary: typeof summary === "string" ? summary : "" };
}
