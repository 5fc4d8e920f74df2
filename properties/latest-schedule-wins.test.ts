import { describe } from "vitest";
import { latestScheduleWins } from "./latest-schedule-wins.js";
import { propertySuite } from "./property-suite.js";

describe("latest-schedule-wins", () => propertySuite(latestScheduleWins, "keep-first-schedule", { replayFails: true }));
