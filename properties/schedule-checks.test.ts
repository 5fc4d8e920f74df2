import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { scheduleChecks } from "./schedule-checks.js";

describe("schedule-checks", () => propertySuite(scheduleChecks, ["allow-past-plans"]));
