/**
 * Reading a scenario file's text into plain data, by extension: `.yaml`/`.yml` as YAML 1.2 (core schema, so `yes`,
 * `on` and timestamps stay strings), `.json` as strict JSON. Duplicate keys are errors in both. Syntax errors
 * name the line and column. The parsed YAML document is kept to locate any later error's node.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { err, ok, type Result } from "../core/errors.js";
import type { DocPath, ScenarioError } from "./errors.js";

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface ParsedSource {
  readonly format: "yaml" | "json";
  readonly data: unknown;
  /** The source position of the node at `path` (or of its nearest existing ancestor). */
  readonly position: (path: DocPath) => SourcePosition | undefined;
}

/** Aliases expanded beyond this count are rejected (a guard against "billion laughs" documents). */
const MAX_ALIAS_COUNT = 100;

export function sourceFormat(fileName: string): "yaml" | "json" | undefined {
  const lower = fileName.toLowerCase();
  if (lower.endsWith(".yaml") || lower.endsWith(".yml")) return "yaml";
  if (lower.endsWith(".json")) return "json";
  return undefined;
}

/** Parses the text of `fileName`; errors are whole-file errors with an empty path. */
export function parseSource(fileName: string, text: string): Result<ParsedSource, ScenarioError[]> {
  const format = sourceFormat(fileName);
  if (format === undefined) {
    return err([{ file: fileName, path: "", message: "unsupported file type: expected .yaml, .yml or .json" }]);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    prettyErrors: true,
    uniqueKeys: true,
    strict: true,
    version: "1.2",
    schema: format === "json" ? "json" : "core",
    lineCounter,
  });
  const position = (path: DocPath): SourcePosition | undefined => {
    const offset = nodeOffset(doc, path);
    if (offset === undefined) return undefined;
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };

  if (format === "json") {
    const parsed = parseJson(fileName, text);
    if (!parsed.ok) return parsed;
    // JSON.parse keeps the last of duplicate keys silently; the YAML parser (a JSON superset) reports them.
    const duplicates = doc.errors
      .filter((e) => e.code === "DUPLICATE_KEY")
      .map((e) => yamlError(fileName, text, format, e));
    if (duplicates.length > 0) return err(duplicates);
    return ok({ format, data: parsed.value, position });
  }

  const problems = [...doc.errors, ...doc.warnings].map((e) => yamlError(fileName, text, format, e));
  if (problems.length > 0) return err(problems);
  try {
    return ok({ format, data: doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }), position });
  } catch (e) {
    return err([{ file: fileName, path: "", message: e instanceof Error ? e.message : String(e) }]);
  }
}

interface YamlProblem {
  readonly code: string;
  readonly message: string;
  readonly pos: readonly [number, number];
  readonly linePos?: readonly [{ line: number; col: number }] | readonly [{ line: number; col: number }, unknown];
}

/**
 * One line per problem. yaml's pretty message is `<text> at line L, column C:` followed by a code frame; the first
 * line is kept, and a duplicate key is named.
 */
function yamlError(file: string, text: string, format: "yaml" | "json", e: YamlProblem): ScenarioError {
  const pos = e.linePos?.[0];
  const where = pos === undefined ? "" : ` at line ${pos.line}, column ${pos.col}`;
  let message: string;
  if (e.code === "DUPLICATE_KEY") {
    const key = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:\n,}]+)/.exec(text.slice(e.pos[0]))?.[1]?.trim();
    const shown = key === undefined ? "" : key.startsWith('"') ? ` ${key}` : ` ${JSON.stringify(key)}`;
    message = `duplicate key${shown}${where}`;
  } else {
    message = `${format === "yaml" ? "YAML" : "JSON"} syntax error: ${(e.message.split("\n")[0] ?? e.message).replace(/:\s*$/, "")}`;
  }
  return pos === undefined ? { file, path: "", message } : { file, path: "", message, line: pos.line, column: pos.col };
}

function parseJson(file: string, text: string): Result<unknown, ScenarioError[]> {
  try {
    return ok(JSON.parse(text) as unknown);
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e);
    const at = /at position (\d+)/.exec(raw);
    const offset = at !== null ? Number(at[1]) : /end of JSON input/.test(raw) ? text.length : undefined;
    const base = raw.replace(/\s+in JSON at position \d+.*$/, "");
    if (offset === undefined) return err([{ file, path: "", message: `JSON syntax error: ${base}` }]);
    const before = text.slice(0, offset).split("\n");
    const line = before.length;
    const column = (before[before.length - 1] ?? "").length + 1;
    return err([
      { file, path: "", message: `JSON syntax error: ${base} at line ${line}, column ${column}`, line, column },
    ]);
  }
}

/** Source offset of the node at `path`: a map entry points at its key; a missing entry at its parent. */
function nodeOffset(doc: Document, path: DocPath): number | undefined {
  let node: unknown = doc.contents;
  let offset = rangeStart(node);
  for (const seg of path) {
    if (isAlias(node)) node = node.resolve(doc);
    if (isMap(node)) {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
      if (pair === undefined) return offset;
      offset = rangeStart(pair.key) ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof seg === "number") {
      const item: unknown = node.items[seg];
      if (item === undefined) return offset;
      offset = rangeStart(item) ?? offset;
      node = item;
    } else {
      return offset;
    }
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Partial<Node> | null | undefined)?.range;
  return range?.[0];
}
