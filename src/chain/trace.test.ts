import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, it } from "vitest";
import { AssertionError } from "../core/assert.js";
import { toHex, utf8 } from "../core/bytes.js";
import { TraceWriter } from "./trace.js";
import { advanceTrace, TRACE_START, type TraceEvent } from "./trace-events.js";

const genesis: TraceEvent = {
  kind: "genesis",
  chainId: "c",
  seed: 1,
  timeMs: 0,
  appHash: "aa",
  blockTime: { kind: "fixed", intervalMs: 1000 as never },
  nodes: [],
};
const halt: TraceEvent = {
  kind: "halt",
  node: "val1",
  height: 6,
  haltKind: "upgrade-needed",
  message: "m",
  timeMs: 6000,
};

const write = (w: TraceWriter, observe: boolean) => {
  w.emit(genesis);
  for (let h = 1; h <= 5; h++) {
    w.plainBlock(h, h * 1000, "aa");
    if (observe) {
      w.hash();
      w.lines();
    }
  }
  w.emit(halt);
  w.plainBlock(6, 6000, "aa");
  w.plainBlock(7, 7000, "bb");
};

describe("TraceWriter", () => {
  it("merges consecutive plain blocks with the same app hash into one range line", () => {
    const w = new TraceWriter(true);
    write(w, false);
    expect(w.lines().map((l) => JSON.parse(l).t)).toEqual(["genesis", "blocks", "halt", "blocks", "blocks"]);
    expect(w.events().filter((e) => e.kind === "blocks")).toEqual([
      { kind: "blocks", from: 1, to: 5, timeFromMs: 1000, timeToMs: 5000, appHash: "aa" },
      { kind: "blocks", from: 6, to: 6, timeFromMs: 6000, timeToMs: 6000, appHash: "aa" },
      { kind: "blocks", from: 7, to: 7, timeFromMs: 7000, timeToMs: 7000, appHash: "bb" },
    ]);
    expect(w.lineCount).toBe(5);
  });

  it("renders the wire names: `t` for the kind, RFC 3339 `time`, a halt's kind as `kind`", () => {
    const w = new TraceWriter(true);
    w.emit(halt);
    expect(w.lines()).toEqual([
      '{"height":6,"kind":"upgrade-needed","message":"m","node":"val1","t":"halt","time":"1970-01-01T00:00:06Z"}',
    ]);
  });

  it("reading the hash or the lines mid-way never changes the trace", () => {
    const observed = new TraceWriter(true);
    const plain = new TraceWriter(true);
    write(observed, true);
    write(plain, false);
    expect(observed.lines()).toEqual(plain.lines());
    expect(observed.hash()).toBe(plain.hash());
  });

  it("a writer that keeps no events hashes exactly what a keeping writer hashes, however long the trace", () => {
    const kept = new TraceWriter(true);
    const dropped = new TraceWriter(false);
    for (const w of [kept, dropped]) {
      w.emit(genesis);
      for (let i = 0; i < 1000; i++) w.emit({ kind: "stall", height: i, timeMs: i });
      w.plainBlock(1, 1000, "aa");
    }
    expect(dropped.hash()).toBe(kept.hash());
    expect(dropped.events()).toEqual([]);
    expect(kept.events()).toHaveLength(1002);
  });

  it("the hash covers the pending range and changes with any event", () => {
    const a = new TraceWriter(false);
    const b = new TraceWriter(false);
    a.plainBlock(1, 1000, "aa");
    b.plainBlock(1, 1000, "aa");
    expect(a.hash()).toBe(b.hash());
    b.plainBlock(2, 2000, "aa");
    expect(a.hash()).not.toBe(b.hash());
    a.plainBlock(2, 2001, "aa");
    expect(a.hash()).not.toBe(b.hash());
  });

  it("a writer restored from a snapshot continues independently and identically", () => {
    const a = new TraceWriter(true);
    a.plainBlock(1, 1000, "aa");
    const snap = a.snapshot();
    const c = new TraceWriter(true, snap);
    const d = new TraceWriter(true, snap);
    c.plainBlock(2, 2000, "aa");
    d.plainBlock(2, 2000, "aa");
    expect(a.events()).toEqual([{ kind: "blocks", from: 1, to: 1, timeFromMs: 1000, timeToMs: 1000, appHash: "aa" }]);
    expect(c.events()[0]).toMatchObject({ to: 2 });
    expect(d.hash()).toBe(c.hash());
    expect(a.hash()).not.toBe(c.hash());
  });

  it("past a megabyte of hashed text the hash goes on from a plain midstate: a restored copy still agrees", () => {
    const long = "x".repeat(1000);
    const run = (w: TraceWriter, from: number, to: number) => {
      for (let i = from; i < to; i++) w.emit({ kind: "sidecar", node: `n${i}`, action: "none", reason: long });
    };
    for (const [cut, mode] of [
      [100, "text"],
      [1500, "midstate"],
    ] as const) {
      const a = new TraceWriter(false);
      run(a, 0, cut);
      const snap = a.snapshot();
      const b = new TraceWriter(false, structuredClone(snap));
      expect(b.hash()).toBe(a.hash());
      run(a, cut, 2000);
      run(b, cut, 2000);
      expect(b.hash()).toBe(a.hash());
      expect(snap.hash.kind).toBe(mode);
      const kept = new TraceWriter(true);
      run(kept, 0, 2000);
      expect(a.hash()).toBe(toHex(sha256(utf8(`${kept.lines().join("\n")}\n`))));
    }
  });
});

describe("plainBlocks: a run of plain blocks in one call", () => {
  it("gives the trace that one plainBlock per block gives, continuing a range or starting one", () => {
    const a = new TraceWriter(true);
    const b = new TraceWriter(true);
    for (const w of [a, b]) {
      w.emit(genesis);
      w.plainBlock(1, 1000, "aa");
    }
    a.plainBlocks(2, 40, 2000, 40_000, "aa");
    for (let h = 2; h <= 40; h++) b.plainBlock(h, h * 1000, "aa");
    a.plainBlocks(41, 41, 41_000, 41_000, "bb");
    b.plainBlock(41, 41_000, "bb");
    a.plainBlocks(42, 50, 42_000, 50_000, "bb");
    for (let h = 42; h <= 50; h++) b.plainBlock(h, h * 1000, "bb");
    for (const w of [a, b]) w.emit(halt);
    expect(a.lines()).toEqual(b.lines());
    expect(a.hash()).toBe(b.hash());
    expect(a.lines()).toHaveLength(4);
  });
});

describe("advanceTrace: where the trace stands", () => {
  it("counts stalls and moves the height with blocks", () => {
    const stall: TraceEvent = { kind: "stall", height: 6, timeMs: 7000 };
    const p = [genesis, halt, stall].reduce(advanceTrace, TRACE_START);
    expect(p).toMatchObject({ stalls: 1, timeMs: 7000, live: true });
  });

  it("an event of no known kind is an engine bug, stopped where the trace is read, not passed on as no position", () => {
    const bad = { ...halt, kind: "" } as unknown as TraceEvent;
    expect(() => advanceTrace(TRACE_START, bad)).toThrow(AssertionError);
    expect(() => advanceTrace(TRACE_START, bad)).toThrow('trace event of unknown kind ""');
  });
});
