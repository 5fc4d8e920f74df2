import { describe } from "vitest";
import { propertySuite } from "./property-suite.js";

describe("determinism", () => propertySuite("determinism", "nondeterministic-genesis", { replayFails: false }));
