import { describe, expect, it } from "vitest";
import { matchTemplate, parseTemplate, swaggerPath } from "./template.js";

const tpl = (t: string) => {
  const r = parseTemplate(t);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const match = (t: string, path: string) => {
  const comps = path.slice(1).split("/");
  const last = comps[comps.length - 1]!;
  const i = last.lastIndexOf(":");
  let verb = "";
  if (i > 0) {
    comps[comps.length - 1] = last.slice(0, i);
    verb = last.slice(i + 1);
  }
  const m = matchTemplate(tpl(t), comps, verb);
  return m === undefined ? undefined : Object.fromEntries(m);
};

describe("path templates", () => {
  it("matches literals case-sensitively and binds one segment per variable", () => {
    expect(match("/a/b/{name}", "/a/b/x")).toEqual({ name: "x" });
    expect(match("/a/b/{name}", "/a/B/x")).toBeUndefined();
    expect(match("/a/b/{name}", "/a/b/")).toEqual({ name: "" });
    expect(match("/a/b/{name}", "/a/b/x/y")).toBeUndefined();
    expect(match("/a/b/{name}", "/a/b")).toBeUndefined();
    expect(match("/a/b", "/a/b/")).toBeUndefined();
  });
  it("glues a request verb back onto the last segment when the pattern has none", () => {
    expect(match("/a/{name}", "/a/v2:rc1")).toEqual({ name: "v2:rc1" });
    expect(match("/a/{name}", "/a/v2:")).toEqual({ name: "v2" });
    expect(match("/a/b", "/a/b:x")).toBeUndefined();
  });
  it("supports verbs, wildcards and nested variable segments", () => {
    expect(match("/v1/{name}:cancel", "/v1/op:cancel")).toEqual({ name: "op" });
    expect(match("/v1/{name}:cancel", "/v1/op")).toBeUndefined();
    expect(match("/v1/{name=shelves/*}/books", "/v1/shelves/s1/books")).toEqual({ name: "shelves/s1" });
    expect(match("/v1/{path=**}/end", "/v1/a/b/c/end")).toEqual({ path: "a/b/c" });
    expect(match("/v1/*/x", "/v1/anything/x")).toEqual({});
    expect(tpl("/v1/{a.b}/c").vars).toEqual(["a.b"]);
    expect(swaggerPath(tpl("/v1/{name=shelves/*}/books"))).toBe("/v1/{name}/books");
  });
  it("rejects malformed templates", () => {
    expect(parseTemplate("a/b").ok).toBe(false);
    expect(parseTemplate("/a/{b").ok).toBe(false);
    expect(parseTemplate("/a//b").ok).toBe(false);
    expect(parseTemplate("/a/{1x}").ok).toBe(false);
    expect(parseTemplate("/**/a/**").ok).toBe(false);
  });
});
