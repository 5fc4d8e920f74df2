import { describe } from "vitest";
import { propertySuite } from "./property-suite.js";

describe("schedule-checks", () => propertySuite("schedule-checks", "allow-past-plans", { replayFails: true }));
