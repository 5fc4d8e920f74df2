import { escapeMarkup } from "../core/markup.js";
import type { CampaignResult } from "./campaign-result.js";
import { describe } from "./commands.js";
import { replayCommand } from "./regression.js";

/**
 * JUnit XML (the Ant/Surefire dialect CI systems read): one `<testsuites>` with suites of test cases; a case has at
 * most one of `<failure>`, `<error>`, `<skipped>`. Text is escaped for XML 1.0; characters XML 1.0 forbids (control
 * characters other than tab, LF, CR; lone surrogates; U+FFFE/U+FFFF) are dropped.
 */
export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  readonly timeSec: number;
  readonly failure?: { readonly message: string; readonly type: string; readonly text: string };
  readonly error?: { readonly message: string; readonly type: string; readonly text: string };
  readonly skipped?: string;
  readonly systemOut?: string;
}

export interface JunitSuite {
  readonly name: string;
  /** ISO 8601 without zone offset, as the JUnit schema wants. */
  readonly timestamp: string;
  readonly timeSec: number;
  readonly properties: Readonly<Record<string, string>>;
  readonly cases: readonly JunitCase[];
}

/** XML 1.0 `Char`: tab, LF, CR, U+0020-U+D7FF, U+E000-U+FFFD, U+10000-U+10FFFF. */
const xmlChar = (cp: number) =>
  cp === 0x9 ||
  cp === 0xa ||
  cp === 0xd ||
  (cp >= 0x20 && cp <= 0xd7ff) ||
  (cp >= 0xe000 && cp <= 0xfffd) ||
  cp >= 0x10000;

function stripForbidden(s: string): string {
  let out = "";
  for (const ch of s) if (xmlChar(ch.codePointAt(0)!)) out += ch;
  return out;
}

/**
 * Escapes text content and attribute values: the characters XML 1.0 forbids dropped, then the one markup escaper
 * (src/core/markup.ts; `'` becomes `&#39;`, a numeric reference, where this file once wrote `&apos;`: the same text).
 */
export function xmlEscape(s: string): string {
  return escapeMarkup(stripForbidden(s));
}

/** Attribute values also keep their line breaks (a raw newline in an attribute reads back as a space). */
const attr = (s: string) => xmlEscape(s).replace(/\r/g, "&#13;").replace(/\n/g, "&#10;").replace(/\t/g, "&#9;");
const secs = (t: number) => (Math.round(t * 1000) / 1000).toFixed(3);

function renderCase(c: JunitCase): string {
  const open = `    <testcase name="${attr(c.name)}" classname="${attr(c.classname)}" time="${secs(c.timeSec)}"`;
  const body: string[] = [];
  if (c.failure !== undefined)
    body.push(
      `      <failure message="${attr(c.failure.message)}" type="${attr(c.failure.type)}">${xmlEscape(c.failure.text)}</failure>`,
    );
  else if (c.error !== undefined)
    body.push(
      `      <error message="${attr(c.error.message)}" type="${attr(c.error.type)}">${xmlEscape(c.error.text)}</error>`,
    );
  else if (c.skipped !== undefined) body.push(`      <skipped message="${attr(c.skipped)}"/>`);
  if (c.systemOut !== undefined) body.push(`      <system-out>${xmlEscape(c.systemOut)}</system-out>`);
  return body.length === 0 ? `${open}/>` : [`${open}>`, ...body, "    </testcase>"].join("\n");
}

/** Renders suites as a JUnit XML document (with the XML declaration and a trailing newline). */
export function renderJunit(suites: readonly JunitSuite[]): string {
  const count = (f: (c: JunitCase) => boolean) => suites.reduce((n, s) => n + s.cases.filter(f).length, 0);
  const tests = count(() => true);
  const failures = count((c) => c.failure !== undefined);
  const errors = count((c) => c.failure === undefined && c.error !== undefined);
  const time = suites.reduce((t, s) => t + s.timeSec, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="chainsim" tests="${tests}" failures="${failures}" errors="${errors}" time="${secs(time)}">`,
  ];
  for (const s of suites) {
    const f = s.cases.filter((c) => c.failure !== undefined).length;
    const e = s.cases.filter((c) => c.failure === undefined && c.error !== undefined).length;
    const sk = s.cases.filter(
      (c) => c.failure === undefined && c.error === undefined && c.skipped !== undefined,
    ).length;
    lines.push(
      `  <testsuite name="${attr(s.name)}" tests="${s.cases.length}" failures="${f}" errors="${e}" skipped="${sk}" time="${secs(s.timeSec)}" timestamp="${attr(s.timestamp)}">`,
    );
    const props = Object.entries(s.properties);
    if (props.length > 0) {
      lines.push("    <properties>");
      for (const [k, v] of props) lines.push(`      <property name="${attr(k)}" value="${attr(v)}"/>`);
      lines.push("    </properties>");
    }
    for (const c of s.cases) lines.push(renderCase(c));
    lines.push("  </testsuite>");
  }
  lines.push("</testsuites>");
  return `${lines.join("\n")}\n`;
}

/** The campaign as one suite: a case per property, a failure with the violation and the replay command. */
export function campaignJunit(
  r: CampaignResult,
  o: {
    readonly runId: string;
    readonly commit: string;
    readonly timestamp: string;
    readonly regressionFiles: ReadonlyMap<string, string>;
  },
): JunitSuite {
  const cases = r.properties.map((p): JunitCase => {
    const base = { name: p.property, classname: "chainsim.check", timeSec: p.wallMs / 1000 };
    const summary = `${p.runs} runs, ${p.commands} commands: ${p.text}`;
    if (p.error !== undefined)
      return { ...base, error: { message: "harness crash", type: "HarnessError", text: p.error }, systemOut: summary };
    const cx = p.counterexample;
    if (cx !== undefined) {
      const file = o.regressionFiles.get(p.property);
      const text = [
        `Violation: ${cx.violation}`,
        `Commands: ${cx.commands.map(describe).join("; ")}`,
        `fast-check seed ${cx.seed}, path "${cx.path}", ${cx.numShrinks} shrinks`,
        ...(file === undefined ? [] : [`Replay: ${replayCommand(file)}`]),
      ].join("\n");
      return { ...base, failure: { message: cx.violation, type: p.property, text }, systemOut: summary };
    }
    if (p.runs === 0) return { ...base, skipped: "no runs (time limit or shard)", systemOut: summary };
    return { ...base, systemOut: summary };
  });
  const s = r.options.shard;
  return {
    name: `chainsim check ${o.runId}`,
    timestamp: o.timestamp,
    timeSec: r.wallMs / 1000,
    properties: {
      seed: String(r.options.seed),
      commit: o.commit,
      shard: `${s.index}/${s.count}`,
      runsPerProperty: String(r.options.runsPerProperty),
      maxCommands: String(r.options.maxCommands),
      faults: r.options.faults.join(",") || "none",
    },
    cases,
  };
}
