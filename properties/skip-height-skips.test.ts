import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { skipHeightSkips } from "./skip-height-skips.js";

describe("skip-height-skips", () => propertySuite(skipHeightSkips));
