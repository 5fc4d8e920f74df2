import { describe } from "vitest";
import { propertySuite } from "./property-suite.js";
import { storeUpgradesOnce } from "./store-upgrades-once.js";

describe("store-upgrades-once", () =>
  propertySuite(storeUpgradesOnce, "store-upgrades-wrong-height", { replayFails: true }));
