import { describe } from "vitest";
import { propertySuite } from "../test/kit/property-suite.js";
import { storeUpgradesOnce } from "./store-upgrades-once.js";

describe("store-upgrades-once", () => propertySuite(storeUpgradesOnce));
