import { sha256 } from "@noble/hashes/sha2.js";
import { toHex, utf8 } from "../core/bytes.js";
import { scenarioToYaml } from "../scenario/serialize.js";
import { describe } from "./commands.js";
import type { Counterexample } from "./run-property.js";

/** A counterexample as a regression scenario file: where to write it and its text. */
export interface RegressionFile {
  /** `<dir>/<property>-<first 8 hex of sha256 of the YAML body>.yaml` (the body excludes the header comment). */
  readonly path: string;
  readonly text: string;
}

/** The command that replays a regression file. */
export const replayCommand = (path: string): string => `npx chainsim run ${path}`;

/**
 * Writes a counterexample as a scenario file named by its content, with a header comment that says where it came
 * from and how to replay it. Same counterexample, same file: re-finding a known failure does not add a file.
 */
export function regressionFile(
  cx: Counterexample,
  o: { readonly dir: string; readonly commit: string; readonly campaignSeed: number },
): RegressionFile {
  const body = scenarioToYaml(cx.document);
  const hash = toHex(sha256(utf8(body))).slice(0, 8);
  const path = `${o.dir.replace(/\/+$/, "")}/${cx.property}-${hash}.yaml`;
  const header = [
    `Regression scenario: counterexample of property "${cx.property}" found by chainsim check.`,
    `Violation: ${cx.violation.replace(/\n/g, " ")}`,
    `Shrunk commands (${cx.commands.length}, after ${cx.numShrinks} shrinks): ${cx.commands.map(describe).join("; ")}`,
    `Campaign seed ${o.campaignSeed}, commit ${o.commit}; fast-check seed ${cx.seed}, path "${cx.path}".`,
    `Replay: ${replayCommand(path)}`,
    "The expectations are the oracle's predictions where the run failed; a chain with the bug does not meet them.",
  ].join("\n");
  return { path, text: scenarioToYaml(cx.document, { header }) };
}
