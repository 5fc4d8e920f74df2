import { err, ok, type Result } from "../../core/errors.js";

/**
 * google.api.http path templates compiled and matched like grpc-gateway v1.16 (`runtime/pattern.go`, built with
 * `AssumeColonVerbOpt(false)`):
 *
 *   Template = "/" Segments [ ":" Verb ] ; Segments = Segment { "/" Segment } ;
 *   Segment  = "*" | "**" | LITERAL | Variable ; Variable = "{" FieldPath [ "=" Segments ] "}" ;
 *
 * A match consumes every component; `*` and `{field}` bind exactly one component (possibly empty), `**` the rest
 * minus the literal tail. Components are the percent-decoded path split on `/`.
 */
export type Op =
  | { readonly code: "lit"; readonly value: string }
  | { readonly code: "push" }
  | { readonly code: "pushM" }
  | { readonly code: "concat"; readonly n: number }
  | { readonly code: "capture"; readonly field: string };

export interface PathTemplate {
  readonly template: string;
  readonly ops: readonly Op[];
  /** Field paths of the variables, in template order. */
  readonly vars: readonly string[];
  readonly verb: string;
  /** Components after a `**`. */
  readonly tailLen: number;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function compileSegments(segs: readonly string[], ops: Op[], vars: string[], nested: boolean): Result<number, string> {
  for (const seg of segs) {
    if (seg === "*") ops.push({ code: "push" });
    else if (seg === "**") ops.push({ code: "pushM" });
    else if (!nested && seg.startsWith("{")) {
      if (!seg.endsWith("}")) return err(`invalid variable segment ${seg}`);
      const inner = seg.slice(1, -1);
      const eq = inner.indexOf("=");
      const field = eq < 0 ? inner : inner.slice(0, eq);
      if (!field.split(".").every((p) => IDENT.test(p))) return err(`invalid field path ${field}`);
      if (eq < 0) ops.push({ code: "push" });
      else {
        const n = compileSegments(inner.slice(eq + 1).split("/"), ops, vars, true);
        if (!n.ok) return n;
        if (n.value > 1) ops.push({ code: "concat", n: n.value });
      }
      ops.push({ code: "capture", field });
      vars.push(field);
    } else if (seg === "" || /[{}*]/.test(seg)) return err(`invalid literal segment ${JSON.stringify(seg)}`);
    else ops.push({ code: "lit", value: seg });
  }
  return ok(segs.length);
}

/** Splits `{...}` groups so that `/` inside a variable's `=` segments stays with its variable. */
function splitTopLevel(body: string): string[] | undefined {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const c of body) {
    if (c === "{") depth++;
    if (c === "}") depth--;
    if (depth < 0 || depth > 1) return undefined;
    if (c === "/" && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  if (depth !== 0) return undefined;
  out.push(cur);
  return out;
}

export function parseTemplate(template: string): Result<PathTemplate, string> {
  if (!template.startsWith("/")) return err(`path template must start with /: ${template}`);
  let body = template.slice(1);
  let verb = "";
  const lastSlash = body.lastIndexOf("/");
  const lastColon = body.lastIndexOf(":");
  if (lastColon > lastSlash && lastColon > body.lastIndexOf("}")) {
    verb = body.slice(lastColon + 1);
    body = body.slice(0, lastColon);
  }
  const parts = splitTopLevel(body);
  if (parts === undefined) return err(`unbalanced braces in ${template}`);
  const ops: Op[] = [];
  const vars: string[] = [];
  const r = compileSegments(parts, ops, vars, false);
  if (!r.ok) return err(`${r.error} in ${template}`);
  let tailLen = 0;
  let seenM = false;
  for (const op of ops) {
    if (op.code === "pushM") {
      if (seenM) return err(`more than one ** in ${template}`);
      seenM = true;
    } else if (seenM && (op.code === "push" || op.code === "lit")) tailLen++;
  }
  return ok({ template, ops, vars, verb, tailLen });
}

/** Matches components and verb; a pattern without verb takes a request verb back onto the last component. */
export function matchTemplate(
  p: PathTemplate,
  components: readonly string[],
  verb: string,
): ReadonlyMap<string, string> | undefined {
  let comps = components;
  if (p.verb !== verb) {
    if (p.verb !== "") return undefined;
    comps = comps.length === 0 ? [`:${verb}`] : [...comps.slice(0, -1), `${comps[comps.length - 1]!}:${verb}`];
  }
  // The leading literals first: most routes a request is tried against fail there, before anything is allocated.
  for (let i = 0; i < p.ops.length; i++) {
    const op = p.ops[i]!;
    if (op.code !== "lit") break;
    if (i >= comps.length || comps[i] !== op.value) return undefined;
  }
  let pos = 0;
  const stack: string[] = [];
  const captured = new Map<string, string>();
  for (const op of p.ops) {
    switch (op.code) {
      case "lit":
      case "push": {
        if (pos >= comps.length) return undefined;
        const c = comps[pos]!;
        if (op.code === "lit" && c !== op.value) return undefined;
        stack.push(c);
        pos++;
        break;
      }
      case "pushM": {
        const end = comps.length - p.tailLen;
        if (end < pos) return undefined;
        stack.push(comps.slice(pos, end).join("/"));
        pos = end;
        break;
      }
      case "concat": {
        const parts = stack.splice(stack.length - op.n, op.n);
        stack.push(parts.join("/"));
        break;
      }
      case "capture":
        captured.set(op.field, stack.pop()!);
        break;
    }
  }
  if (pos < comps.length) return undefined;
  return captured;
}

/** The template with `{field=...}` variables reduced to `{field}` (Swagger path keys). */
export function swaggerPath(p: PathTemplate): string {
  const base = p.template.replace(/\{([^}=]+)=[^}]*\}/g, "{$1}");
  return base;
}
