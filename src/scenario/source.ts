/**
 * Reading a scenario file's text into plain data, by extension: `.yaml`/`.yml` as YAML 1.2 (core schema, so `yes`,
 * `on` and timestamps stay strings), `.json` as strict JSON. Duplicate keys are errors in both. Syntax errors
 * name the line and column. The parsed YAML document is kept to locate any later error's node.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { err, ok, type Result } from "../core/errors.js";
import { type DocPath, quoteValue, type ScenarioError } from "./errors.js";

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

/** Lists and maps nested deeper than this are rejected before any pass walks them (scenarios need about 8). */
export const NESTING_DEPTH_MAX = 64;

/** One line for a document nested deeper than `NESTING_DEPTH_MAX`. */
export const TOO_DEEP_MESSAGE = `lists and maps are nested deeper than ${NESTING_DEPTH_MAX} levels`;

/**
 * Structure deeper than this in the text is refused before the YAML parser sees it: the parser recurses once per
 * level, and near the stack's end it fails in ways that are not always catchable (V8 may abort compiling a regular
 * expression). A level is a flow bracket, a compact `- `/`? ` indicator or a column of indentation.
 */
export const TEXT_NESTING_MAX = 256;

/**
 * The first line whose structural depth exceeds `max` (see TEXT_NESTING_MAX), in one linear scan; undefined when
 * none does. Quoted strings and comments are skipped; a quote only opens a string where a YAML token can start.
 */
export function lineNestedDeeperThan(text: string, max: number): number | undefined {
  let flow = 0;
  let line = 1;
  let indent = 0;
  let atIndent = true;
  let prev = "\n";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\n") {
      line++;
      indent = 0;
      atIndent = true;
      prev = c;
      continue;
    }
    if (atIndent && c === " ") indent++;
    else atIndent = false;
    const tokenStart = " \t\n[{,:-".includes(prev);
    if ((c === '"' || c === "'") && tokenStart) {
      // Skip the string; a double-quoted one has backslash escapes, a single-quoted one doubles its quote.
      for (i++; i < text.length; i++) {
        const d = text[i]!;
        if (d === "\n") line++;
        if (c === '"' && d === "\\") i++;
        else if (d === c) break;
      }
      prev = c;
      continue;
    }
    if (c === "#" && (prev === " " || prev === "\t" || prev === "\n")) {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
      continue;
    }
    if (c === "[" || c === "{") flow++;
    else if ((c === "]" || c === "}") && flow > 0) flow--;
    else if ((c === "-" || c === "?") && (text[i + 1] === " " || text[i + 1] === "\t") && tokenStart) indent += 2;
    if (flow + indent > max) return line;
    prev = c;
  }
  return undefined;
}

/** True when `data` has lists or maps nested deeper than `max` (an iterative walk: never overflows the stack). */
export function nestedDeeperThan(data: unknown, max: number): boolean {
  const stack: { readonly v: unknown; readonly depth: number }[] = [{ v: data, depth: 0 }];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (n.v === null || typeof n.v !== "object") continue;
    if (n.depth >= max) return true;
    for (const child of Array.isArray(n.v) ? n.v : Object.values(n.v)) stack.push({ v: child, depth: n.depth + 1 });
  }
  return false;
}

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
  const deepLine = lineNestedDeeperThan(text, TEXT_NESTING_MAX);
  if (deepLine !== undefined) {
    const message = `lists and maps are nested or indented deeper than ${TEXT_NESTING_MAX} levels at line ${deepLine}`;
    return err([{ file: fileName, path: "", message, line: deepLine, column: 1 }]);
  }
  try {
    return parseChecked(fileName, format, text);
  } catch (e) {
    // The YAML parser recurses per nesting level: a document deep enough to exhaust the stack is "too deep".
    if (e instanceof RangeError) return err([{ file: fileName, path: "", message: TOO_DEEP_MESSAGE }]);
    throw e;
  }
}

function parseChecked(fileName: string, format: "yaml" | "json", text: string): Result<ParsedSource, ScenarioError[]> {
  const tooDeep = (data: unknown) =>
    nestedDeeperThan(data, NESTING_DEPTH_MAX) ? [{ file: fileName, path: "", message: TOO_DEEP_MESSAGE }] : [];
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, {
    prettyErrors: true,
    // yaml's own check scans every earlier key of the map for each key (quadratic); `duplicateKeys` is linear.
    uniqueKeys: false,
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
    const duplicates = duplicateKeys(doc, lineCounter).map((e) => yamlError(fileName, text, format, e));
    if (duplicates.length > 0) return err(duplicates);
    const deep = tooDeep(parsed.value);
    if (deep.length > 0) return err(deep);
    return ok({ format, data: parsed.value, position });
  }

  const problems = [...doc.errors, ...doc.warnings, ...duplicateKeys(doc, lineCounter)].map((e) =>
    yamlError(fileName, text, format, e),
  );
  if (problems.length > 0) return err(problems);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    if (e instanceof RangeError) throw e;
    return err([{ file: fileName, path: "", message: e instanceof Error ? e.message : String(e) }]);
  }
  const deep = tooDeep(data);
  return deep.length > 0 ? err(deep) : ok({ format, data, position });
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
  if (e.code === "COLLECTION_KEY") {
    message = `${e.message}${where}`;
  } else if (e.code === "DUPLICATE_KEY") {
    const key = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:\n,}]+)/.exec(text.slice(e.pos[0]))?.[1]?.trim();
    const shown = key === undefined ? "" : key.startsWith('"') ? ` ${key}` : ` ${quoteValue(key)}`;
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

/**
 * Every repeated key of every map, and every key that is not a plain scalar, in one linear walk (a scalar key repeats when its parsed value does, as in yaml's
 * own `uniqueKeys` check), reported like yaml's DUPLICATE_KEY error at the repeat.
 */
function duplicateKeys(doc: Document, lineCounter: LineCounter): YamlProblem[] {
  const out: YamlProblem[] = [];
  const problem = (code: string, message: string, start: number) => {
    const { line, col } = lineCounter.linePos(start);
    out.push({ code, message, pos: [start, start + 1], linePos: [{ line, col }] });
  };
  const stack: unknown[] = [doc.contents];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (isSeq(node)) for (const item of node.items) stack.push(item);
    else if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        stack.push(pair.value);
        if (!isScalar(pair.key)) {
          // A list, a map or an alias as a key: a scenario's keys are names, and JavaScript would stringify it.
          const start = rangeStart(pair.key) ?? rangeStart(node) ?? 0;
          problem("COLLECTION_KEY", "a map key must be a plain value, not a list, a map or an alias", start);
        } else if (seen.has(pair.key.value))
          problem("DUPLICATE_KEY", "Map keys must be unique", rangeStart(pair.key) ?? 0);
        else seen.add(pair.key.value);
      }
    }
  }
  return out.sort((a, b) => a.pos[0] - b.pos[0]);
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
