import { describe } from "vitest";
import { propertySuite } from "./property-suite.js";

describe("model-agreement", () => propertySuite("model-agreement", "off-by-one-due-height", { replayFails: true }));
