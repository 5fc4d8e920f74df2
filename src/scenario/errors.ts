import { quote } from "../core/go/strconv.js";

/**
 * Validation errors of scenario files. Each error names the file, the path inside the document
 * (`steps[2].vote.votes.val9`) and a message, and renders as one line `<file>: <path>: <message>`.
 * Syntax errors have an empty path and carry the line and column in their message; other errors carry the line
 * and column of the offending node when the source has positions (both YAML and JSON do), for editors.
 */

export type PathSegment = string | number;
export type DocPath = readonly PathSegment[];

export interface ScenarioError {
  readonly file: string;
  /** Rendered path (`steps[2].vote.votes.val9`); `""` for the document itself and for syntax errors. */
  readonly path: string;
  readonly message: string;
  /** 1-based position of the node the error is about, when known. */
  readonly line?: number;
  readonly column?: number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * A value as the loader's messages quote it: strings as Go's `%q` does (`"\x1b[1;31m"`, never a raw control
 * character), everything else as JSON.
 */
export const quoteValue = (v: unknown): string =>
  typeof v === "string"
    ? quote(v)
    : (JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? x.toString() : x)) ?? String(v));

/** `["steps", 2, "vote", "votes", "val9"]` → `steps[2].vote.votes.val9`; odd keys are quoted: `upgrades["v2.0"]`. */
export function renderPath(path: DocPath): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (IDENTIFIER.test(seg)) out += out === "" ? seg : `.${seg}`;
    else out += `[${quote(seg)}]`;
  }
  return out;
}

/** One line: `<file>: <path>: <message>`, or `<file>: <message>` when the path is empty; control characters escaped. */
export const formatScenarioError = (e: ScenarioError): string =>
  oneLine(e.path === "" ? `${e.file}: ${e.message}` : `${e.file}: ${e.path}: ${e.message}`);

/** Control characters (a parser may quote the offending text, newlines included) escaped: always one line. */
function oneLine(s: string): string {
  let out = "";
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    out += c < 0x20 || c === 0x7f ? `\\u${c.toString(16).padStart(4, "0")}` : ch;
  }
  return out;
}

/**
 * Document order of a path: at each level, the position of the key (or index) among the parent's entries as
 * parsed; a key that is absent (a missing required key) sorts after the parent's existing entries. A parent sorts
 * before its children.
 */
export function documentOrderKey(
  root: unknown,
  path: DocPath,
  keyIndex: (node: object) => ReadonlyMap<string, number> = keyIndexOf,
): readonly number[] {
  const key: number[] = [];
  let node: unknown = root;
  for (const seg of path) {
    if (Array.isArray(node) && typeof seg === "number") {
      key.push(seg);
      node = node[seg];
    } else if (node !== null && typeof node === "object" && !Array.isArray(node)) {
      const keys = keyIndex(node);
      const i = keys.get(String(seg));
      key.push(i === undefined ? keys.size : i);
      node = i === undefined ? undefined : (node as Record<string, unknown>)[String(seg)];
    } else {
      key.push(Number.MAX_SAFE_INTEGER);
      node = undefined;
    }
  }
  return key;
}

const keyIndexOf = (node: object): ReadonlyMap<string, number> => new Map(Object.keys(node).map((k, i) => [k, i]));

/** `keyIndexOf`, computed once per map: ordering n sibling errors costs O(n), not O(n²). */
function memoKeyIndex(): (node: object) => ReadonlyMap<string, number> {
  const memo = new WeakMap<object, ReadonlyMap<string, number>>();
  return (node) => {
    let m = memo.get(node);
    if (m === undefined) {
      m = keyIndexOf(node);
      memo.set(node, m);
    }
    return m;
  };
}

export function compareOrderKeys(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/** An error found at a path, before it is bound to a file and sorted. */
export interface PathIssue {
  readonly path: DocPath;
  readonly message: string;
}

/** Errors listed per file; the rest are counted in one last line. */
export const REPORTED_ERRORS_MAX = 100;

/**
 * Sorts issues into document order (stable for equal paths), drops exact duplicates and binds them to the file;
 * beyond `REPORTED_ERRORS_MAX` errors, one last error `N more errors not shown` (path "") stands for the rest.
 * `position` maps a path to its source line and column when the source has positions.
 */
export function bindIssues(
  file: string,
  root: unknown,
  issues: readonly PathIssue[],
  position?: (path: DocPath) => { readonly line: number; readonly column: number } | undefined,
): ScenarioError[] {
  const keyIndex = memoKeyIndex();
  const keyed = issues.map((issue, i) => ({ issue, i, key: documentOrderKey(root, issue.path, keyIndex) }));
  keyed.sort((a, b) => compareOrderKeys(a.key, b.key) || a.i - b.i);
  const seen = new Set<string>();
  const out: ScenarioError[] = [];
  let hidden = 0;
  for (const { issue } of keyed) {
    const path = renderPath(issue.path);
    const id = `${path}\u0000${issue.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    if (out.length === REPORTED_ERRORS_MAX) {
      hidden++;
      continue;
    }
    const pos = position?.(issue.path);
    out.push(
      pos === undefined ? { file, path, message: issue.message } : { file, path, message: issue.message, ...pos },
    );
  }
  if (hidden > 0) out.push({ file, path: "", message: `${hidden} more error${hidden === 1 ? "" : "s"} not shown` });
  return out;
}
