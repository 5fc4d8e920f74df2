import { bech32PrefixProblem } from "../core/address.js";
import { err, ok, type Result } from "../core/errors.js";
import { parseGoBool, parseGoInt } from "../core/go/strconv.js";
import { isNamespace, NAMESPACES, type Namespace } from "../core/namespace.js";

/**
 * Flag and argument parsing with cobra/pflag semantics and messages (docs/node-api.md §6.1), for the devnet commands.
 * Order of checks: flag parsing → argument count → required flags; the first failure is returned as its exact text.
 * - `--name value` and `--name=value`; a bool flag takes no separate value (`--no-validate`, `--no-validate=false`);
 *   `--` ends the flags; a lone `-` is an argument.
 * - A flag given twice keeps the last value, except `list` flags (pflag slices), which accumulate and split on `,`.
 */
export type FlagKind = "string" | "int64" | "bool" | "list";

export interface FlagSpec {
  readonly name: string;
  readonly kind: FlagKind;
  readonly required?: boolean;
  /** One-letter shorthand (`-o`). */
  readonly short?: string;
}

export type Arity =
  | { readonly exact: number }
  | { readonly max: number }
  | { readonly min: number }
  | { readonly range: readonly [number, number] };

export interface CommandSpec {
  readonly args: Arity;
  readonly flags: readonly FlagSpec[];
}

export interface Parsed {
  readonly args: readonly string[];
  /** Values as given (bool flags as "true"/"false", lists joined by ","), by flag name. */
  readonly values: ReadonlyMap<string, string>;
  /** Flags that were set (pflag `Changed`). */
  readonly changed: ReadonlySet<string>;
  /** Everything after `--`, untouched. */
  readonly rest: readonly string[];
}

export const HELP_FLAG: FlagSpec = { name: "help", kind: "bool", short: "h" };

function checkArity(a: Arity, n: number): string | undefined {
  if ("exact" in a) return n === a.exact ? undefined : `accepts ${a.exact} arg(s), received ${n}`;
  if ("max" in a) return n <= a.max ? undefined : `accepts at most ${a.max} arg(s), received ${n}`;
  if ("min" in a) return n >= a.min ? undefined : `requires at least ${a.min} arg(s), only received ${n}`;
  const [lo, hi] = a.range;
  return n >= lo && n <= hi ? undefined : `accepts between ${lo} and ${hi} arg(s), received ${n}`;
}

function checkValue(f: FlagSpec, v: string): string | undefined {
  if (f.kind === "int64") {
    const r = parseGoInt(v, 0, 64);
    if (!r.ok) return `invalid argument ${JSON.stringify(v)} for "--${f.name}" flag: ${r.error.text}`;
  }
  if (f.kind === "bool") {
    const r = parseGoBool(v);
    if (!r.ok) return `invalid argument ${JSON.stringify(v)} for "--${f.name}" flag: ${r.error.text}`;
  }
  return undefined;
}

/** Parses argv against the spec; `--help`/`-h` is always accepted (the caller prints usage when it is set). */
export function parseCobra(argv: readonly string[], spec: CommandSpec): Result<Parsed, string> {
  const flags = [...spec.flags, HELP_FLAG];
  const byName = new Map(flags.map((f) => [f.name, f]));
  const byShort = new Map(flags.filter((f) => f.short !== undefined).map((f) => [f.short!, f]));
  const values = new Map<string, string>();
  const changed = new Set<string>();
  const args: string[] = [];
  let rest: string[] = [];
  const set = (f: FlagSpec, v: string): string | undefined => {
    const bad = checkValue(f, v);
    if (bad !== undefined) return bad;
    if (f.kind === "list" && changed.has(f.name)) values.set(f.name, `${values.get(f.name)},${v}`);
    else values.set(f.name, v);
    changed.add(f.name);
    return undefined;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      rest = argv.slice(i + 1);
      break;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const f = byName.get(name);
      if (f === undefined) return err(`unknown flag: --${name}`);
      let v: string;
      if (eq >= 0) v = a.slice(eq + 1);
      else if (f.kind === "bool") v = "true";
      else if (i + 1 < argv.length) v = argv[++i]!;
      else return err(`flag needs an argument: --${name}`);
      const bad = set(f, v);
      if (bad !== undefined) return err(bad);
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      const c = a[1]!;
      const f = byShort.get(c);
      if (f === undefined) return err(`unknown shorthand flag: '${c}' in ${a}`);
      let v: string;
      if (a.length > 2) v = a[2] === "=" ? a.slice(3) : a.slice(2);
      else if (f.kind === "bool") v = "true";
      else if (i + 1 < argv.length) v = argv[++i]!;
      else return err(`flag needs an argument: '${c}' in -${c}`);
      const bad = set(f, v);
      if (bad !== undefined) return err(bad);
      continue;
    }
    args.push(a);
  }
  if (values.get("help") === "true") return ok({ args, values, changed, rest });
  const arity = checkArity(spec.args, args.length);
  if (arity !== undefined) return err(arity);
  const missing = spec.flags.filter((f) => f.required === true && !changed.has(f.name)).map((f) => `"${f.name}"`);
  if (missing.length > 0) return err(`required flag(s) ${missing.join(", ")} not set`);
  return ok({ args, values, changed, rest });
}

/** Typed accessors over a parse result. */
export const flagString = (p: Parsed, name: string, dflt = ""): string => p.values.get(name) ?? dflt;
export const flagBool = (p: Parsed, name: string): boolean => {
  const v = p.values.get(name);
  return v === undefined ? false : parseGoBool(v).ok && (parseGoBool(v) as { value: boolean }).value;
};
export const flagInt = (p: Parsed, name: string, dflt = 0n): bigint => {
  const v = p.values.get(name);
  if (v === undefined) return dflt;
  const r = parseGoInt(v, 0, 64);
  return r.ok ? r.value : dflt;
};
export const isHelp = (p: Parsed): boolean => flagBool(p, "help");

/** `--bech32-prefix <hrp>` when given (a valid bech32 human-readable part); undefined when not given. */
export function bech32PrefixFlag(p: Parsed): Result<string | undefined, string> {
  if (!p.changed.has("bech32-prefix")) return ok(undefined);
  const v = flagString(p, "bech32-prefix");
  const problem = bech32PrefixProblem(v);
  return problem === undefined ? ok(v) : err(`invalid argument "${v}" for "--bech32-prefix" flag: ${problem}`);
}

/** `--namespace chain|cosmos` when given (cobra's invalid-argument text otherwise); undefined when not given. */
export function namespaceFlag(p: Parsed): Result<Namespace | undefined, string> {
  if (!p.changed.has("namespace")) return ok(undefined);
  const v = flagString(p, "namespace");
  return isNamespace(v)
    ? ok(v)
    : err(`invalid argument "${v}" for "--namespace" flag: expected one of ${NAMESPACES.join(", ")}`);
}
