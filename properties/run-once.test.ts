import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";

describe("run-once", () => propertySuite("run-once", "skip-done-marker", { replayFails: true }));
