/**
 * Go's `path.Clean` and, on a Unix host, `path/filepath.Join`, over strings (slash-separated, no volume names).
 *
 * Contract: `clean` returns the shortest path equivalent by purely lexical processing: repeated slashes collapse,
 * `.` elements go, each `..` removes the element before it (a rooted path's leading `..` is dropped, an unrooted
 * one's kept), the empty path is `.`. `join` drops empty elements, joins the rest with `/` and cleans; with no
 * non-empty element it is the empty string (Go's `Join("", "") == ""`).
 */

/** Go `path.Clean`. */
export function clean(p: string): string {
  if (p === "") return ".";
  const rooted = p.startsWith("/");
  const out: string[] = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!rooted) out.push("..");
      continue;
    }
    out.push(seg);
  }
  const joined = out.join("/");
  if (rooted) return `/${joined}`;
  return joined === "" ? "." : joined;
}

/** Go `filepath.Join` on a Unix host. */
export function join(...elems: readonly string[]): string {
  const parts = elems.filter((e) => e !== "");
  return parts.length === 0 ? "" : clean(parts.join("/"));
}
