import { describe, expect, it } from "vitest";
import { escapeMarkup } from "./markup.js";

describe("escapeMarkup", () => {
  it("replaces each of the five markup characters by its reference", () => {
    expect(escapeMarkup("&")).toBe("&amp;");
    expect(escapeMarkup("<")).toBe("&lt;");
    expect(escapeMarkup(">")).toBe("&gt;");
    expect(escapeMarkup('"')).toBe("&quot;");
    expect(escapeMarkup("'")).toBe("&#39;");
    expect(escapeMarkup(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("escapes text that is already escaped again, so it shows as typed", () => {
    expect(escapeMarkup("&amp; &lt;b&gt; &#39;")).toBe("&amp;amp; &amp;lt;b&amp;gt; &amp;#39;");
  });

  it("leaves other text alone, including non-ASCII and line breaks", () => {
    const text = "plan v2 at height 30 — halted (upgrade-needed)\nnext line ✓";
    expect(escapeMarkup(text)).toBe(text);
    expect(escapeMarkup("")).toBe("");
  });
});
