// The conformance suite with each strategy that is not in the default pipeline, so every one keeps the invariants.
import { describeContextManager } from "@ctxkit/conformance/vitest";
import type { Coordinator, StrategyEntry } from "@ctxkit/core";
import * as contextSimple from "./index.js";

function withStrategies(strategies: () => StrategyEntry[]) {
  return {
    meta: contextSimple.meta,
    configSchema: contextSimple.configSchema,
    mount: (coordinator: Coordinator, config: object = {}) => contextSimple.mount(coordinator, { ...config, strategies: strategies() }),
  };
}

describeContextManager(
  "context-simple with [sliding-window, truncate]",
  withStrategies(() => [{ name: "sliding-window", options: { windowSize: 8 } }, "truncate"]),
);
describeContextManager(
  "context-simple with [importance]",
  withStrategies(() => ["importance"]),
);
describeContextManager(
  "context-simple with [microcompact, trim-long-text, truncate]",
  withStrategies(() => [{ name: "microcompact", options: { keepRecent: 1 } }, "trim-long-text", "truncate"]),
);
describeContextManager(
  "context-simple with [offload-tool-results, truncate]",
  withStrategies(() => [{ name: "offload-tool-results", options: { minTokens: 20, keepRecent: 0 } }, "truncate"]),
);
