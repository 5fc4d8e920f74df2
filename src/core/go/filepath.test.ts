import { describe, expect, it } from "vitest";
import { clean, join } from "./filepath.js";

describe("clean (Go path.Clean)", () => {
  // Cases from Go's path/path_test.go cleantests.
  it.each([
    ["", "."],
    ["abc", "abc"],
    ["abc/def", "abc/def"],
    [".", "."],
    ["..", ".."],
    ["../..", "../.."],
    ["../../abc", "../../abc"],
    ["/abc", "/abc"],
    ["/", "/"],
    ["abc/", "abc"],
    ["abc//def//ghi", "abc/def/ghi"],
    ["//abc", "/abc"],
    ["abc/./def", "abc/def"],
    ["/./abc/def", "/abc/def"],
    ["abc/.", "abc"],
    ["abc/def/ghi/../jkl", "abc/def/jkl"],
    ["abc/def/../ghi/../jkl", "abc/jkl"],
    ["abc/..", "."],
    ["abc/../..", ".."],
    ["/abc/../..", "/"],
    ["abc/../../..", "../.."],
    ["/../abc", "/abc"],
    ["abc/./../def", "def"],
  ])("%j → %j", (p, want) => {
    expect(clean(p)).toBe(want);
  });
});

describe("join (Go filepath.Join on Unix)", () => {
  // Cases from Go's path/filepath/path_test.go jointests.
  it.each([
    [[], ""],
    [[""], ""],
    [["a"], "a"],
    [["", ""], ""],
    [["a", "b"], "a/b"],
    [["a", ""], "a"],
    [["", "b"], "b"],
    [["/", "a"], "/a"],
    [["/", "a/b"], "/a/b"],
    [["/", ""], "/"],
    [["/a", "b"], "/a/b"],
    [["a/", "b"], "a/b"],
    [["a/", ""], "a"],
    [["", ""], ""],
    [["//", "a"], "/a"],
    [["/home/node/", "data"], "/home/node/data"],
  ] as const)("%j → %j", (elems, want) => {
    expect(join(...elems)).toBe(want);
  });
});
