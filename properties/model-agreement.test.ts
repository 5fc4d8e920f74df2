import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";

describe("model-agreement", () => propertySuite("model-agreement", "off-by-one-due-height", { replayFails: true }));
