import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { modelAgreement } from "./model-agreement.js";

describe("model-agreement", () => propertySuite(modelAgreement, "off-by-one-due-height", { replayFails: true }));
