import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { cancelEffective } from "./cancel-effective.js";

describe("cancel-effective", () => propertySuite(cancelEffective));
