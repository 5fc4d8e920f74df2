import { describe } from "vitest";
import { propertySuite } from "./property-suite.js";

describe("liveness", () => propertySuite("liveness", "unanimous-consensus", { replayFails: true }));
