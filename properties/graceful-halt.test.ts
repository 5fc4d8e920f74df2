import { describe } from "vitest";
import { gracefulHalt } from "./graceful-halt.js";
import { propertySuite } from "./property-suite.js";

describe("graceful-halt", () => propertySuite(gracefulHalt, "missed-halt", { replayFails: true }));
