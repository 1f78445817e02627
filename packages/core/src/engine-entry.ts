// @ctxkit/core/engine: what a context module's package builds its manager from, and nothing else. The same objects
// as `@ctxkit/core/kit` exports, from an entry whose imports stop at the engine: a fresh process that imports
// only this loads and compiles about a fifth less code than the kit, which re-exports the coordinator, mount
// plans, module loading and the adapter, store and provider-loop kits beside it.
export { ContextEngine, type ContextEngineOptions } from "./engine/context-engine.js";
export { contextConfigSchema, FALLBACK_BUDGET, type ResolvedContextConfig } from "./engine/context-config.js";
export { mountContextManager } from "./engine/mount-context-manager.js";
export { MemoryMessageStore } from "./store/memory-message-store.js";
