// @ctxkit/ai-sdk: ctxkit context managers inside Vercel AI SDK agents.

export { toModelMessages, type ModelPrompt, type ToModelMessagesOptions } from "./to-model-messages.js";
export type { ModelIdentity } from "./ai-sdk-provenance.js";
export { fromModelMessages, type FromModelMessagesOptions } from "./from-model-messages.js";
export { contextMiddleware, type ContextMiddlewareOptions } from "./context-middleware.js";
export { createContextSteps, type ContextSteps, type ContextStepsOptions, type PreparedStep } from "./context-steps.js";
export type { ContextOptions } from "./context-options.js";
