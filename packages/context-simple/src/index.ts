// @ctxkit/context-simple: core's context engine over an in-memory store.
export { SimpleContextManager, createSimpleContext } from "./simple-context.js";
export { MemoryMessageStore } from "@ctxkit/core";
export { meta, mount, configSchema } from "./module.js";
export {
  FALLBACK_BUDGET,
  type ContextConfig as SimpleContextConfig,
  type ResolvedContextConfig as ResolvedSimpleContextConfig,
  type StrategyEntry,
  type EventHandler,
} from "@ctxkit/core";
