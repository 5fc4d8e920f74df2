import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { scheduleChecks } from "./schedule-checks.js";

// The second half of the schedule checks: a completed name can't be scheduled again.
describe("schedule-checks (completed names)", () => propertySuite(scheduleChecks, ["allow-completed-names"]));
