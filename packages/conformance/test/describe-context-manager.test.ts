// describeContextManager on a plain factory: events heard through `subscribe`, compact() switched off,
// so the compact property shows up as skipped, with the reason in its name.
import { createSimpleContext, type SimpleContextManager } from "../../context-simple/src/index.js";
import { describeContextManager } from "../src/vitest.js";

describeContextManager("context-simple as a factory", () => createSimpleContext(), {
  runs: 20,
  capabilities: { compact: false },
  subscribe: (manager, listener) => (manager as SimpleContextManager).addEventHandler((event, payload) => listener(event, payload)),
});
