import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";

describe("cancel-effective", () => propertySuite("cancel-effective", "ignore-cancel", { replayFails: true }));
