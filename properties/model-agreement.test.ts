import { describe } from "vitest";
import { modelAgreement } from "./model-agreement.js";
import { propertySuite } from "./property-suite.js";

describe("model-agreement", () => propertySuite(modelAgreement, "off-by-one-due-height", { replayFails: true }));
