/**
 * The one escaper of text written into HTML or XML (the report page, its inline SVG labels, JUnit XML): the five
 * characters with a meaning in markup become references, so any text reads back as itself in element content and in
 * a quoted attribute value (single or double quotes).
 *
 * `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;`, `"` → `&quot;`, `'` → `&#39;` (a numeric reference: valid in HTML and
 * XML alike, where `&apos;` is XML's and HTML5's only). The input is text, never markup: text that looks escaped
 * (`&amp;`) is escaped again, so that it shows as typed. Pure.
 */
const REFERENCES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `s` as markup text: the five characters `& < > " '` replaced by their references. */
export const escapeMarkup = (s: string): string => s.replace(/[&<>"']/g, (c) => REFERENCES[c]!);
