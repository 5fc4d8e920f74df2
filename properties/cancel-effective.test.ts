import { describe } from "vitest";
import { cancelEffective } from "./cancel-effective.js";
import { propertySuite } from "./property-suite.js";

describe("cancel-effective", () => propertySuite(cancelEffective, "ignore-cancel", { replayFails: true }));
