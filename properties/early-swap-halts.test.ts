import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { earlySwapHalts } from "./early-swap-halts.js";

describe("early-swap-halts", () => propertySuite(earlySwapHalts));
