import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { modelAgreement } from "./model-agreement.js";

describe("model-agreement", () => propertySuite(modelAgreement));
