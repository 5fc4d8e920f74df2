import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";

describe("latest-schedule-wins", () =>
  propertySuite("latest-schedule-wins", "keep-first-schedule", { replayFails: true }));
