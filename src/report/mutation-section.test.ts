import { describe, expect, it } from "vitest";
import { mutationSection } from "./mutation-section.js";
import { summarizeMutation } from "./mutation-summary.js";

const m = (line: number, status: string) => ({
  id: String(line),
  mutatorName: "EqualityOperator",
  replacement: ">=",
  location: { start: { line, column: 7 } },
  status,
});

describe("the report's mutation section", () => {
  it("says how to get a score when no mutation run exists", () => {
    expect(mutationSection(null, undefined)).toContain("npm run mutate");
  });

  it("tables each file's score per detector, the time to kill, the survivors and Stryker's reports", () => {
    const summary = summarizeMutation(
      {
        campaign: { files: { "src/upgrade/preblocker.ts": { mutants: [m(1, "Killed"), m(2, "Survived")] } } },
        scenarios: { files: { "src/upgrade/preblocker.ts": { mutants: [m(1, "Killed"), m(2, "Survived")] } } },
      },
      [{ mutant: "0", ms: 800, exitCode: 1 }],
    );
    const html = mutationSection({ summary, dir: "../mutation" }, "<svg></svg>");
    expect(html).toContain('<section id="mutation">');
    expect(html).toContain("<td><code>src/upgrade/preblocker.ts</code></td><td>50.0%");
    expect(html).toContain("median 0.8 s");
    expect(html).toContain("src/upgrade/preblocker.ts:2:7</code> EqualityOperator → <code>&gt;=</code>");
    expect(html).toContain('href="../mutation/campaign/index.html"');
    expect(html).not.toContain("campaign+scenarios/index.html");
  });
});
