import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";

describe("schedule-checks", () => propertySuite("schedule-checks", "allow-past-plans", { replayFails: true }));
