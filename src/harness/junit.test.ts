import { describe, expect, it } from "vitest";
import { runCampaign } from "./campaign.js";
import { campaignJunit, type JunitSuite, renderJunit, xmlEscape } from "./junit.js";
import { HOLDS, type Property, Violation } from "./property.js";
import type { PropertyOutcome, PropertyRunOptions } from "./run-property.js";

/**
 * A tiny XML well-formedness check for the subset the writer emits: one declaration, properly nested elements,
 * quoted attributes without raw `<` or `&`, only the five predefined entities or character references, no
 * characters XML 1.0 forbids. Returns the element names in document order.
 */
function checkWellFormed(xml: string): string[] {
  let rest = xml;
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(rest);
  if (decl === null) throw new Error("missing XML declaration");
  rest = rest.slice(decl[0].length);
  const stack: string[] = [];
  const names: string[] = [];
  const entity = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/y;
  const checkText = (t: string) => {
    for (let i = 0; i < t.length; i++) {
      const c = t[i]!;
      if (c === "<") throw new Error(`raw < in ${JSON.stringify(t)}`);
      if (c === "&") {
        entity.lastIndex = i;
        if (!entity.test(t)) throw new Error(`bad entity in ${JSON.stringify(t)}`);
      }
      const cp = c.charCodeAt(0);
      if (cp < 0x20 && cp !== 0x9 && cp !== 0xa && cp !== 0xd) throw new Error(`control character ${cp}`);
    }
  };
  const tag = /^<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>/;
  while (rest.length > 0) {
    const lt = rest.indexOf("<");
    if (lt < 0) {
      checkText(rest);
      break;
    }
    checkText(rest.slice(0, lt));
    rest = rest.slice(lt);
    const m = tag.exec(rest);
    if (m === null) throw new Error(`malformed tag at ${JSON.stringify(rest.slice(0, 40))}`);
    const [all, close, name, attrs, selfClose] = m;
    for (const a of attrs!.matchAll(/="([^"]*)"/g)) checkText(a[1]!);
    const attrNames = [...attrs!.matchAll(/([A-Za-z_][\w.-]*)=/g)].map((a) => a[1]);
    if (new Set(attrNames).size !== attrNames.length) throw new Error(`duplicate attribute in <${name}>`);
    if (close === "/") {
      if (stack.pop() !== name) throw new Error(`unbalanced </${name}>`);
    } else {
      if (stack.length === 0 && names.length > 0) throw new Error("more than one root element");
      names.push(name!);
      if (selfClose !== "/") stack.push(name!);
    }
    rest = rest.slice(all!.length);
  }
  if (stack.length > 0) throw new Error(`unclosed ${stack.join(", ")}`);
  return names;
}

describe("xmlEscape", () => {
  it("escapes markup characters and drops characters XML 1.0 forbids", () => {
    // `'` as the shared markup escaper writes it (src/core/markup.ts): a numeric reference, the same text as &apos;.
    expect(xmlEscape(`a<b>&"c'`)).toBe("a&lt;b&gt;&amp;&quot;c&#39;");
    expect(xmlEscape("x\u0000\u0007y\tz\n\uFFFE\uD800")).toBe("xy\tz\n");
    expect(xmlEscape("ok 😀")).toBe("ok 😀");
  });
});

describe("renderJunit", () => {
  const suite: JunitSuite = {
    name: "chainsim check r1",
    timestamp: "2026-11-22T06:45:00",
    timeSec: 1.5,
    properties: { seed: "42" },
    cases: [
      { name: "run-once", classname: "chainsim.check", timeSec: 0.5 },
      {
        name: "liveness",
        classname: "chainsim.check",
        timeSec: 1,
        failure: { message: 'plan "v2" <pending>\nat 5', type: "liveness", text: "Violation: a & b" },
      },
    ],
  };

  it("renders the expected document", () => {
    expect(renderJunit([suite])).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="chainsim" tests="2" failures="1" errors="0" time="1.500">',
        '  <testsuite name="chainsim check r1" tests="2" failures="1" errors="0" skipped="0" time="1.500" timestamp="2026-11-22T06:45:00">',
        "    <properties>",
        '      <property name="seed" value="42"/>',
        "    </properties>",
        '    <testcase name="run-once" classname="chainsim.check" time="0.500"/>',
        '    <testcase name="liveness" classname="chainsim.check" time="1.000">',
        '      <failure message="plan &quot;v2&quot; &lt;pending&gt;&#10;at 5" type="liveness">Violation: a &amp; b</failure>',
        "    </testcase>",
        "  </testsuite>",
        "</testsuites>",
        "",
      ].join("\n"),
    );
  });

  it("is well-formed for hostile text", () => {
    const hostile = `]]> <![CDATA[ & &amp; </failure> "' \u0001 \uDC00`;
    const xml = renderJunit([
      {
        ...suite,
        name: hostile,
        properties: { [hostile.replace(/\W/g, "")]: hostile },
        cases: [
          { name: hostile, classname: hostile, timeSec: 0, error: { message: hostile, type: hostile, text: hostile } },
          { name: "s", classname: "c", timeSec: 0, skipped: hostile, systemOut: hostile },
        ],
      },
    ]);
    expect(checkWellFormed(xml)).toEqual([
      "testsuites",
      "testsuite",
      "properties",
      "property",
      "testcase",
      "error",
      "testcase",
      "skipped",
      "system-out",
    ]);
  });

  it("the checker rejects malformed XML (so the test above can fail)", () => {
    expect(() => checkWellFormed('<?xml version="1.0" encoding="UTF-8"?>\n<a><b></a></b>')).toThrow(/unbalanced/);
    expect(() => checkWellFormed('<?xml version="1.0" encoding="UTF-8"?>\n<a>x & y</a>')).toThrow(/entity/);
    expect(() => checkWellFormed('<?xml version="1.0" encoding="UTF-8"?>\n<a b="<"/>')).toThrow(/malformed/);
    expect(() => checkWellFormed('<?xml version="1.0" encoding="UTF-8"?>\n<a/><b/>')).toThrow(/root/);
  });
});

/** A property stub: the campaign machinery under test never runs its check. */
const stub = (name: string): Property => ({
  name,
  statement: `always: ${name} holds`,
  kind: "always",
  catches: [],
  check: () => HOLDS,
});

describe("campaignJunit", () => {
  it("has one case per property; a failure carries the violation, the commands and the replay command", () => {
    const run = (o: PropertyRunOptions): PropertyOutcome => {
      const base = { property: o.property.name, interrupted: false, fired: new Set<string>(), commandsRun: 2 };
      if (o.property.name !== "liveness") return { ...base, runs: o.numRuns, passed: true };
      return {
        ...base,
        runs: 1,
        passed: false,
        counterexample: {
          property: "liveness",
          violation: new Violation("liveness", "stuck <at> 5").detail,
          world: { seed: o.seed },
          commands: [{ kind: "stop", node: "val1" }],
          document: { name: "x", binaries: { v1: {} }, chain: { validators: [{ name: "v", power: 1 }] } },
          seed: o.seed,
          path: "3:1",
          numShrinks: 4,
        },
      };
    };
    const r = runCampaign(
      { seed: 1, properties: [stub("run-once"), stub("liveness")], runsPerProperty: 3, generationSamples: 0 },
      { clock: () => 0, runProperty: run },
    );
    const s = campaignJunit(r, {
      runId: "check-1",
      commit: "abc1234",
      timestamp: "2026-11-22T06:45:00",
      regressionFiles: new Map([["liveness", "scenarios/regressions/liveness-0123abcd.yaml"]]),
    });
    expect(s.cases.map((c) => c.name)).toEqual(["run-once", "liveness"]);
    expect(s.cases[0]!.failure).toBeUndefined();
    const f = s.cases[1]!.failure!;
    expect(f.message).toBe("stuck <at> 5");
    expect(f.text).toContain("Commands: stop(val1)");
    expect(f.text).toContain('path "3:1"');
    expect(f.text).toContain("Replay: npx chainsim run scenarios/regressions/liveness-0123abcd.yaml");
    expect(s.properties).toMatchObject({ seed: "1", commit: "abc1234", shard: "1/1" });
    expect(checkWellFormed(renderJunit([s]))).toContain("failure");
  });
});
