import { describeAdapter } from "@ctxkit/conformance/vitest";
import { fromPlainMessages, toPlainMessages } from "./plain-adapter.js";

describeAdapter("plain", { name: "plain", toProvider: toPlainMessages, fromProvider: fromPlainMessages });
