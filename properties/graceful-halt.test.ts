import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { gracefulHalt } from "./graceful-halt.js";

describe("graceful-halt", () => propertySuite(gracefulHalt));
