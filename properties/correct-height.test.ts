import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";

describe("correct-height", () => propertySuite("correct-height", "off-by-one-due-height", { replayFails: true }));
