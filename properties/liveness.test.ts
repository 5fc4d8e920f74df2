import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { liveness } from "./liveness.js";

describe("liveness", () => propertySuite(liveness));
