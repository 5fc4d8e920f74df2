import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { latestScheduleWins } from "./latest-schedule-wins.js";

describe("latest-schedule-wins", () => propertySuite(latestScheduleWins));
