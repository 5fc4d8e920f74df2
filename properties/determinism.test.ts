import { describe } from "vitest";
import { determinism } from "./determinism.js";
import { propertySuite } from "./property-suite.js";

describe("determinism", () => propertySuite(determinism, "nondeterministic-genesis", { replayFails: false }));
