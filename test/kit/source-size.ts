/**
 * Sizes of the hand-written sources, for the size check (test/size-limits.test.ts): lines per file, and lines per
 * function measured on the TypeScript compiler's syntax tree (never by pattern matching).
 *
 * 1. `handWrittenSources(root)`: every .ts/.mjs/.js file under src, models, properties, bench and scripts, except
 *    generated code (src/gen), the scenario schema (src/scenario/schema.ts) and tests (`*.test.ts`).
 * 2. `fileLines(text)`: the number of lines, a final newline not counting as one more.
 * 3. `functionSizes(path, text)`: every function-like node (declaration, expression, arrow, method, constructor,
 *    accessor) with its qualified name and its lines from its first token to its closing one (its doc comment not
 *    included). A nested function counts inside its parent too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";

export const SOURCE_ROOTS = ["src", "models", "properties", "bench", "scripts"] as const;
const EXCLUDED_DIRS = ["src/gen"];
const EXCLUDED_FILES = ["src/scenario/schema.ts"];

/** Repository-relative paths (with `/`) of the hand-written sources, sorted. */
export function handWrittenSources(root: string): readonly string[] {
  const out: string[] = [];
  for (const top of SOURCE_ROOTS) {
    for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.(ts|mjs|js)$/.test(entry.name) || entry.name.endsWith(".test.ts")) continue;
      const path = relative(root, join(entry.parentPath, entry.name)).split(sep).join("/");
      if (EXCLUDED_FILES.includes(path) || EXCLUDED_DIRS.some((d) => path.startsWith(`${d}/`))) continue;
      out.push(path);
    }
  }
  return out.sort();
}

export const fileLines = (text: string): number => (text === "" ? 0 : text.replace(/\n$/, "").split("\n").length);

export interface FunctionSize {
  /** `Class.method`, `outer.inner`, a variable's or property's name, or `<anonymous>` inside its parent. */
  readonly name: string;
  readonly line: number;
  readonly lines: number;
}

function nameOf(node: ts.Node, sf: ts.SourceFile): string | undefined {
  const named = node as ts.Node & { readonly name?: ts.Node };
  if (named.name !== undefined) return named.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(sf);
  }
  return undefined;
}

const CONTAINERS = (n: ts.Node): boolean => ts.isClassLike(n) || ts.isFunctionLike(n);

/** Every function-like node of `text` with its size in lines. */
export function functionSizes(path: string, text: string): readonly FunctionSize[] {
  const kind = path.endsWith(".ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const out: FunctionSize[] = [];
  const visit = (node: ts.Node, scope: readonly string[]): void => {
    let inner = scope;
    if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
      const name = [...scope, nameOf(node, sf) ?? "<anonymous>"].join(".");
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ name, line: first + 1, lines: last - first + 1 });
      inner = name.split(".");
    } else if (CONTAINERS(node)) {
      const name = nameOf(node, sf);
      if (name !== undefined) inner = [...scope, name];
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(sf, []);
  return out;
}

/** A file's text (repository-relative path). */
export const readSource = (root: string, path: string): string => readFileSync(join(root, path), "utf8");
