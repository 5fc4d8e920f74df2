import { describe } from "vitest";
import { propertySuite } from "./property-suite.js";

describe("correct-height", () => propertySuite("correct-height", "off-by-one-due-height", { replayFails: true }));
