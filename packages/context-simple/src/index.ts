// @ctxkit/context-simple: core's context engine over an in-memory store.
export { SimpleContextManager, createSimpleContext } from "./simple-context.js";
export { MemoryMessageStore } from "@ctxkit/core/engine";
export { meta, mount, configSchema } from "./module.js";
export type { ContextConfig as SimpleContextConfig, StrategyEntry, EventHandler } from "@ctxkit/core";
export { FALLBACK_BUDGET } from "@ctxkit/core/engine";
export type { ResolvedContextConfig as ResolvedSimpleContextConfig } from "@ctxkit/core/engine";
