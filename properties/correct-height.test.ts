import { describe } from "vitest";
import { correctHeight } from "./correct-height.js";
import { propertySuite } from "./property-suite.js";

describe("correct-height", () => propertySuite(correctHeight, "off-by-one-due-height", { replayFails: true }));
