import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { runOnce } from "./run-once.js";

describe("run-once", () => propertySuite(runOnce));
