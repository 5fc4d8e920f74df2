/**
 * The reference decodes proposal metadata with Go's `json.Unmarshal` into `{title, authors, summary, details,
 * proposal_forum_url, vote_option_context}`. When that succeeds, title and summary must equal the message's;
 * when it fails (not JSON, not an object, a field of the wrong type) the metadata is accepted as free text.
 * Go matches keys case-insensitively (an exact match wins) and decodes `null` as "no fields".
 * Returns the decoded title and summary, or undefined when the metadata does not decode.
 */
export function decodeProposalMetadata(metadata: string): { title: string; summary: string } | undefined {
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
