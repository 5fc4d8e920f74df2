import { escapeMarkup } from "../core/markup.js";

/**
 * Inline SVG hygiene. Several SVG documents inlined in one HTML page share one id namespace, so every id an SVG
 * defines (clip paths, gradients) and every reference to it (`url(#id)`, `href="#id"`) is prefixed with a per-chart
 * prefix; ids are renumbered in order of appearance, so the output does not depend on vega's process-global counters.
 */
export function scopeSvgIds(svg: string, prefix: string): string {
  const ids = new Map<string, string>();
  for (const m of svg.matchAll(/\sid="([^"]+)"/g)) {
    const id = m[1]!;
    if (!ids.has(id)) ids.set(id, `${prefix}-${ids.size + 1}`);
  }
  if (ids.size === 0) return svg;
  const swap = (id: string) => ids.get(id) ?? id;
  return svg
    .replace(/(\sid=")([^"]+)(")/g, (_m, a: string, id: string, b: string) => `${a}${swap(id)}${b}`)
    .replace(/url\(#([^)]+)\)/g, (_m, id: string) => `url(#${swap(id)})`)
    .replace(/(href=")#([^"]+)(")/g, (_m, a: string, id: string, b: string) => `${a}#${swap(id)}${b}`);
}

/** Drops an XML prolog (not allowed inside HTML) and names the chart for assistive technology. */
export function inlineSvg(svg: string, label: string): string {
  const body = svg.replace(/^<\?xml[^>]*>\s*/, "");
  return body.replace(/^<svg\b/, `<svg role="img" aria-label="${escapeMarkup(label)}"`);
}

/**
 * Gives every mark item a `<title>` (the tooltip browsers show on hover, in a page without scripts): vega writes a
 * mark's `description` encoding as the item's `aria-label`; each `role="graphics-symbol"` element that has one gets
 * a `<title>` child with the same text.
 */
export function addMarkTitles(svg: string): string {
  return svg.replace(
    /<(path|rect|line|text|g|circle)\b([^>]*?\srole="graphics-symbol"[^>]*?)(\/?)>/g,
    (whole, tag: string, attrs: string, selfClosing: string) => {
      const label = /\saria-label="([^"]*)"/.exec(attrs)?.[1];
      if (label === undefined || label === "") return whole;
      // The attribute text is already XML-escaped, as the element text must be.
      const title = `<title>${label}</title>`;
      return selfClosing === "/" ? `<${tag}${attrs}>${title}</${tag}>` : `<${tag}${attrs}>${title}`;
    },
  );
}
