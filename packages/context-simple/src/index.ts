export { SimpleContextManager, createSimpleContext, type SimpleContextExtensions } from "./simple-context-manager.js";
export {
  configSchema,
  FALLBACK_BUDGET,
  type SimpleContextConfig,
  type ResolvedSimpleContextConfig,
  type StrategyEntry,
  type EventHandler,
} from "./config-schema.js";
export { meta, mount } from "./module.js";
export { EventSink } from "./event-sink.js";
