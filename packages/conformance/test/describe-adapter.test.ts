import { describeAdapter } from "../src/vitest.js";
import { healthyAdapter } from "./__fixtures__/broken-adapters.js";

describeAdapter("a healthy adapter", healthyAdapter);
