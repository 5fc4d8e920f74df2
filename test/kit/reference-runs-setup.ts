import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

/**
 * vitest global setup: one directory per `vitest run` for the shared reference runs (test/kit/reference-runs.ts),
 * removed when the run ends. Nothing survives a run, so no reference can be stale.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), "chainsim-reference-runs-"));
  project.provide("referenceRunsDir", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
