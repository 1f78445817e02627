// @ctxkit/ai-sdk: ctxkit context managers inside Vercel AI SDK agents.

export { toModelMessages, type ModelPrompt } from "./to-model-messages.js";
export { fromModelMessages, type FromModelMessagesOptions } from "./from-model-messages.js";
