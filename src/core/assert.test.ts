import { describe, expect, it } from "vitest";
import { AssertionError, assert, present } from "./assert.js";

describe("assert", () => {
  it("passes silently when the invariant holds and names it when it does not", () => {
    expect(() => assert(1 + 1 === 2, "arithmetic")).not.toThrow();
    expect(() => assert(false, "one result per transaction")).toThrow(new AssertionError("one result per transaction"));
  });
  it("present returns the value or throws with the message", () => {
    expect(present(0, "zero is present")).toBe(0);
    expect(() => present(undefined, "node val9 is known")).toThrow("node val9 is known");
  });
});
