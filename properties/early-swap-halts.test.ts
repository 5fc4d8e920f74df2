import { describe } from "vitest";
import { earlySwapHalts } from "./early-swap-halts.js";
import { propertySuite } from "./property-suite.js";

describe("early-swap-halts", () => propertySuite(earlySwapHalts, "no-early-halt", { replayFails: true }));
