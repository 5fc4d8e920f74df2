import { describe, expect, it } from "vitest";
import { BoundedCache } from "./bounded-cache.js";

describe("BoundedCache", () => {
  it("never holds more than its bound, evicting the oldest entry first", () => {
    const c = new BoundedCache<number, string>(3);
    for (let i = 0; i < 10; i++) c.set(i, `v${i}`);
    expect(c.size).toBe(3);
    expect([7, 8, 9].map((k) => c.get(k))).toEqual(["v7", "v8", "v9"]);
    expect(c.get(6)).toBeUndefined();
  });

  it("fifo: a hit does not save an entry; lru: it does", () => {
    const fifo = new BoundedCache<string, number>(2);
    const lru = new BoundedCache<string, number>(2, { policy: "lru" });
    for (const c of [fifo, lru]) {
      c.set("a", 1);
      c.set("b", 2);
      c.get("a");
      c.set("c", 3);
    }
    expect([fifo.get("a"), fifo.get("b")]).toEqual([undefined, 2]);
    expect([lru.get("a"), lru.get("b")]).toEqual([1, undefined]);
  });

  it("getOrCompute computes a key once while it is cached, and again after eviction", () => {
    const c = new BoundedCache<number, number>(2);
    let calls = 0;
    const square = (k: number) => {
      calls++;
      return k * k;
    };
    expect(c.getOrCompute(3, square)).toBe(9);
    expect(c.getOrCompute(3, square)).toBe(9);
    expect(calls).toBe(1);
    c.getOrCompute(4, square);
    c.getOrCompute(5, square);
    expect(c.getOrCompute(3, square)).toBe(9);
    expect(calls).toBe(4);
  });

  it("overwriting a key keeps the size; null is a value, a bound below 1 is a bug", () => {
    const c = new BoundedCache<string, number | null>(2);
    c.set("x", null);
    c.set("x", null);
    expect(c.size).toBe(1);
    expect(c.getOrCompute("x", () => 1)).toBeNull();
    expect(() => new BoundedCache(0)).toThrow(/positive integer/);
  });
});
