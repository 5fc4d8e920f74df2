import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";

describe("early-swap-halts", () => propertySuite("early-swap-halts", "no-early-halt", { replayFails: true }));
