// @ctxkit/opentelemetry: ctxkit's context managers in any OpenTelemetry backend.
export { instrumentContextManager, type InstrumentationOptions } from "./instrument-context-manager.js";
export type { EventHooks } from "./event-source.js";
export * from "./attribute-names.js";
