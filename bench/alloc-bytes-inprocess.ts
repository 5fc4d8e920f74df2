// What a new byte array costs in this Node, by size (docs/performance.md, "Session 15: byte arrays above 64
// bytes"): `slice()` of a stored value, `new Uint8Array(n)`, and allocBytes / copyBytes (src/core/bytes.ts), in ns
// per array, each the median of ROUNDS rounds of PER_ROUND arrays after a warm-up round (the collector's share
// included: the arrays die young, as a copy handed to a caller does); then a view of a fresh small array
// (`subarray`), against a copy of it (`slice`).
// Run: node --import tsx bench/alloc-bytes-inprocess.ts
import { allocBytes, copyBytes } from "../src/core/bytes.js";

const ROUNDS = 7;
const PER_ROUND = 200_000;

function nsPerArray(make: () => Uint8Array): number {
  let keep = 0;
  const per: number[] = [];
  for (let k = 0; k <= ROUNDS; k++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < PER_ROUND; i++) keep += make().length;
    const ns = Number(process.hrtime.bigint() - start) / PER_ROUND;
    if (k > 0) per.push(ns);
  }
  if (keep < 0) throw new Error("unreachable");
  per.sort((a, b) => a - b);
  return per[ROUNDS >> 1]!;
}

for (const n of [32, 64, 65, 128, 260, 1024]) {
  const source = new Uint8Array(n + 1).fill(7);
  const value = source.subarray(1);
  const row = [
    `slice ${nsPerArray(() => source.slice(1)).toFixed(0)}`,
    `new Uint8Array ${nsPerArray(() => new Uint8Array(n)).toFixed(0)}`,
    `allocBytes ${nsPerArray(() => allocBytes(n)).toFixed(0)}`,
    `copyBytes ${nsPerArray(() => copyBytes(value)).toFixed(0)}`,
  ];
  process.stdout.write(`${n} bytes: ns per array: ${row.join(", ")}\n`);
}

// A fresh array of up to 64 bytes keeps its bytes on V8's heap; a view of it (`subarray`, or reading `.buffer`)
// first moves them to a backing store of their own.
const subarrayNs = nsPerArray(() => new Uint8Array(9).subarray(1));
const sliceNs = nsPerArray(() => new Uint8Array(9).slice(1));
process.stdout.write(
  `a fresh 9-byte array: ns per array: subarray(1) ${subarrayNs.toFixed(0)}, slice(1) ${sliceNs.toFixed(0)}\n`,
);
