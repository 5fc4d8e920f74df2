import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { determinism } from "./determinism.js";

describe("determinism", () => propertySuite(determinism));
