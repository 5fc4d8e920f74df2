import { describe, expect, it } from "vitest";
import { addMarkTitles, inlineSvg, scopeSvgIds } from "./svg.js";

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg"><defs><clipPath id="clip7"><rect/></clipPath><linearGradient id="gradient_3"/></defs>' +
  '<g clip-path="url(#clip7)"><path fill="url(#gradient_3)"/><use href="#clip7"/></g></svg>';

describe("scopeSvgIds", () => {
  it("prefixes and renumbers every id and every reference to it", () => {
    const out = scopeSvgIds(SVG, "c1");
    expect(out).toContain('id="c1-1"');
    expect(out).toContain('id="c1-2"');
    expect(out).toContain('clip-path="url(#c1-1)"');
    expect(out).toContain('fill="url(#c1-2)"');
    expect(out).toContain('href="#c1-1"');
    expect(out).not.toMatch(/clip7|gradient_3/);
  });

  it("keeps two charts with the same ids apart, and does not depend on vega's counters", () => {
    const other = SVG.replace(/clip7/g, "clip99");
    expect(scopeSvgIds(other, "c1")).toBe(scopeSvgIds(SVG, "c1"));
    expect(scopeSvgIds(SVG, "c2")).not.toContain('id="c1-');
  });

  it("leaves an SVG without ids unchanged", () => {
    expect(scopeSvgIds("<svg><g/></svg>", "x")).toBe("<svg><g/></svg>");
  });
});

describe("inlineSvg", () => {
  it("drops an XML prolog and labels the root with an escaped accessible name", () => {
    const out = inlineSvg('<?xml version="1.0"?>\n<svg width="1"><g/></svg>', 'a "b" <c>');
    // The shared markup escaper (src/core/markup.ts) also writes `>` as a reference: the same attribute value.
    expect(out).toBe('<svg role="img" aria-label="a &quot;b&quot; &lt;c&gt;" width="1"><g/></svg>');
  });
});

describe("addMarkTitles", () => {
  it("gives each labelled mark item a <title> tooltip, self-closing or not, and leaves unlabelled ones", () => {
    const svg =
      '<g><path aria-label="val1 halted (upgrade-needed): a &lt;b&gt;" role="graphics-symbol" d="M0"/>' +
      '<rect role="graphics-symbol" aria-label="chain stalled" x="1"></rect><path role="graphics-symbol" d="M1"/></g>';
    expect(addMarkTitles(svg)).toBe(
      '<g><path aria-label="val1 halted (upgrade-needed): a &lt;b&gt;" role="graphics-symbol" d="M0">' +
        "<title>val1 halted (upgrade-needed): a &lt;b&gt;</title></path>" +
        '<rect role="graphics-symbol" aria-label="chain stalled" x="1"><title>chain stalled</title></rect>' +
        '<path role="graphics-symbol" d="M1"/></g>',
    );
  });
});
