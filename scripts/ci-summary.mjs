// Prints the plain closing line CI reads (`N passed, N failed`) from vitest's JSON report.
import { readFileSync } from "node:fs";

const file = process.argv[2] ?? "reports/ci/vitest.json";
let report;
try {
  report = JSON.parse(readFileSync(file, "utf8"));
} catch (e) {
  console.log(`tests: could not read ${file}: ${e.message}`);
  console.log("0 passed, 1 failed");
  process.exit(0);
}
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTests ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(
  skipped > 0 ? `${passed} passed, ${failed} failed, ${skipped} skipped` : `${passed} passed, ${failed} failed`,
);
