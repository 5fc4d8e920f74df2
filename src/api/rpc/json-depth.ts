/**
 * Go's encoding/json refuses a document nested deeper than 10000 arrays and objects (`maxNestingDepth`) while it
 * scans, before decoding anything: `exceeded max depth`. CometBFT's JSON-RPC handler reports that as a parse error
 * (-32700, `error unmarshaling request: exceeded max depth`). This finds it the same way, in one pass over the text
 * (brackets inside strings do not count).
 */
export const MAX_JSON_DEPTH = 10_000;

export function exceedsJsonDepth(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
