/** The report's stylesheet (inlined: the page loads nothing). */
export const REPORT_CSS = `
:root { --ink: #24292f; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; --pass: #1a7f37; --fail: #cf222e;
  --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 14px/1.5 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; }
header { background: #0d1117; color: #f0f6fc; padding: 18px 32px 14px; }
header h1 { margin: 0; font-size: 22px; font-weight: 600; }
header .meta { color: #8b949e; font-size: 13px; margin-top: 2px; }
nav { position: sticky; top: 0; z-index: 1; background: #fff; border-bottom: 1px solid var(--line);
  padding: 8px 32px; font-size: 14px; }
nav a { margin-right: 18px; color: var(--accent); text-decoration: none; }
main { max-width: 1120px; margin: 0 auto; padding: 8px 32px 48px; }
section { margin-top: 28px; }
h2 { font-size: 20px; border-bottom: 1px solid var(--line); padding-bottom: 6px; margin: 0 0 14px; }
h3 { font-size: 16px; margin: 22px 0 8px; }
a { color: var(--accent); }
code, pre { font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px;
  overflow-x: auto; margin: 6px 0; }
p.note { color: var(--muted); margin: 4px 0 10px; }
.badge { display: inline-block; border-radius: 12px; padding: 1px 10px; font-size: 12px; font-weight: 600;
  vertical-align: middle; color: #fff; background: var(--muted); }
.badge.passed { background: var(--pass); } .badge.failed, .badge.crashed { background: var(--fail); }
.badge.known { background: #9a6700; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(160px, 1fr)); gap: 10px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; background: var(--soft); }
.card .k { color: var(--muted); font-size: 12px; }
.card .v { font-size: 18px; font-weight: 600; overflow-wrap: anywhere; }
.card .v.passed { color: var(--pass); } .card .v.failed, .card .v.crashed { color: var(--fail); }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.text { color: var(--muted); }
td.name { white-space: nowrap; }
table.compact { width: auto; min-width: 420px; }
tr.failed td:first-child { border-left: 3px solid var(--fail); }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 20px; align-items: start; }
.chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 6px 0; }
.chip { border: 1px solid var(--line); border-radius: 14px; padding: 1px 10px; font-size: 12.5px;
  text-decoration: none; color: var(--ink); background: #fff; }
.chip::before { content: "✓ "; color: var(--pass); font-weight: 700; }
.chip.failed { border-color: var(--fail); background: #ffebe9; }
.chip.failed::before { content: "✗ "; color: var(--fail); }
.chart { overflow-x: auto; margin: 6px 0; }
.chart svg { display: block; max-width: 100%; height: auto; }
article.scenario { border-top: 1px solid var(--line); padding-top: 6px; margin-top: 18px; }
article.scenario h3 { margin: 8px 0 2px; }
.facts { color: var(--muted); font-size: 13px; }
.failures { color: var(--fail); margin: 4px 0; padding-left: 20px; }
details { margin: 4px 0 8px; }
summary { cursor: pointer; color: var(--accent); font-size: 13px; }
ol.steps { margin: 4px 0; padding-left: 28px; }
ol.steps li { font: 12.5px/1.6 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.cx { border: 1px solid var(--fail); border-radius: 8px; padding: 4px 16px 10px; margin: 12px 0; }
.cx h3 { color: var(--fail); }
footer { color: var(--muted); font-size: 12px; margin-top: 40px; border-top: 1px solid var(--line); padding-top: 8px; }
`;
