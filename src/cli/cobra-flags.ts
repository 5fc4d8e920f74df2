import { parseGoBool, parseGoInt, quote } from "../core/go/strconv.js";

/**
 * A pflag/cobra-compatible flag parser for the node-style commands (docs/node-api.md §6.1): interspersed flags,
 * `--name value`, `--name=value`, `-x value`, `-xvalue`, `-x=value`, `--` ends flags. Error texts are pflag's.
 */
export interface FlagSpec {
  readonly name: string;
  readonly shorthand?: string;
  readonly kind: "string" | "int64" | "bool";
}

export type FlagValue = string | bigint | boolean;

export interface ParsedFlags {
  readonly values: ReadonlyMap<string, FlagValue>;
  readonly positionals: readonly string[];
}

export type FlagResult =
  | { readonly ok: true; readonly value: ParsedFlags }
  | { readonly ok: false; readonly error: string };

function convert(
  spec: FlagSpec,
  raw: string,
  shown: string,
): { ok: true; value: FlagValue } | { ok: false; error: string } {
  const bad = (inner: string) => ({
    ok: false as const,
    error: `invalid argument ${quote(raw)} for ${quote(shown)} flag: ${inner}`,
  });
  switch (spec.kind) {
    case "string":
      return { ok: true, value: raw };
    case "bool": {
      const b = parseGoBool(raw);
      return b.ok ? { ok: true, value: b.value } : bad(b.error.text);
    }
    case "int64": {
      const n = parseGoInt(raw, 0, 64);
      return n.ok ? { ok: true, value: n.value } : bad(n.error.text);
    }
  }
}

/** The flag as pflag names it in errors: `-o, --output` when it has a shorthand. */
const shownName = (s: FlagSpec): string => (s.shorthand === undefined ? `--${s.name}` : `-${s.shorthand}, --${s.name}`);

export function parseFlags(args: readonly string[], specs: readonly FlagSpec[]): FlagResult {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.shorthand !== undefined).map((s) => [s.shorthand!, s]));
  const values = new Map<string, FlagValue>();
  const positionals: string[] = [];
  const set = (spec: FlagSpec, raw: string): string | undefined => {
    const v = convert(spec, raw, shownName(spec));
    if (!v.ok) return v.error;
    values.set(spec.name, v.value);
    return undefined;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith("--") && a.length > 2) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const spec = byName.get(name);
      if (spec === undefined) return { ok: false, error: `unknown flag: --${name}` };
      let raw: string;
      if (eq >= 0) raw = a.slice(eq + 1);
      else if (spec.kind === "bool") raw = "true";
      else if (i + 1 < args.length) raw = args[++i]!;
      else return { ok: false, error: `flag needs an argument: --${name}` };
      const e = set(spec, raw);
      if (e !== undefined) return { ok: false, error: e };
      continue;
    }
    if (a.startsWith("-") && a.length > 1 && !a.startsWith("--")) {
      const shorts = a.slice(1);
      for (let j = 0; j < shorts.length; j++) {
        const c = shorts[j]!;
        const spec = byShort.get(c);
        if (spec === undefined) return { ok: false, error: `unknown shorthand flag: '${c}' in ${a}` };
        let raw: string;
        if (shorts[j + 1] === "=") raw = shorts.slice(j + 2);
        else if (spec.kind === "bool") {
          const e = set(spec, "true");
          if (e !== undefined) return { ok: false, error: e };
          continue;
        } else if (j + 1 < shorts.length) raw = shorts.slice(j + 1);
        else if (i + 1 < args.length) raw = args[++i]!;
        else return { ok: false, error: `flag needs an argument: '${c}' in ${a}` };
        const e = set(spec, raw);
        if (e !== undefined) return { ok: false, error: e };
        break;
      }
      continue;
    }
    positionals.push(a);
  }
  return { ok: true, value: { values, positionals } };
}

/** cobra's `ExactArgs(n)` and `MaximumNArgs(n)` messages; undefined when the count fits. */
export function checkArity(kind: "exact" | "max", n: number, received: number): string | undefined {
  if (kind === "exact" && received !== n) return `accepts ${n} arg(s), received ${received}`;
  if (kind === "max" && received > n) return `accepts at most ${n} arg(s), received ${received}`;
  return undefined;
}
