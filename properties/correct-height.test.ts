import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { correctHeight } from "./correct-height.js";

describe("correct-height", () => propertySuite(correctHeight));
