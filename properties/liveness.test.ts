import { describe } from "vitest";
import { liveness } from "./liveness.js";
import { propertySuite } from "./property-suite.js";

describe("liveness", () => propertySuite(liveness, "unanimous-consensus", { replayFails: true }));
