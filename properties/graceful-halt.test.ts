import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";

describe("graceful-halt", () => propertySuite("graceful-halt", "missed-halt", { replayFails: true }));
