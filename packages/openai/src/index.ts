// @ctxkit/openai: ctxkit views for the OpenAI SDK, and OpenAI messages back into a ctxkit manager.
export { toChatCompletionMessages, toChatCompletionMessage } from "./chat-completions/to-chat-completion-messages.js";
export { fromChatCompletionMessage, fromChatCompletionMessages } from "./chat-completions/from-chat-completion-messages.js";
export { toResponseInputItems, type ToResponseInputItemsOptions } from "./responses/to-response-input-items.js";
export {
  fromResponseInputItems,
  type FromResponseInputItemsOptions,
  type ResponseItem,
} from "./responses/from-response-input-items.js";
export { accountOf, openAIProvenance } from "./responses/openai-provenance.js";
export type { ReasoningPart } from "./responses/reasoning-part.js";
export { CtxkitSession, SessionPopError, type CtxkitSessionOptions } from "./agents/ctxkit-session.js";
export { toAgentInputItems, fromAgentInputItems } from "./agents/agent-items.js";
export type {
  AgentsSession,
  AgentInputItem,
  AgentUserMessageItem,
  AgentSystemMessageItem,
  AgentAssistantMessageItem,
  AgentFunctionCallItem,
  AgentFunctionCallResultItem,
  AgentReasoningItem,
  AgentUserContent,
  AgentAssistantContent,
  AgentToolOutput,
} from "./agents/agent-input-item.js";
export { CHAT_COMPLETION_MESSAGE_KEYS } from "./chat-completions/chat-completion-keys.js";
export {
  contextChatCompletions,
  type ContextChatCompletions,
  type ContextChatCompletionParams,
  type ContextChatCompletionStreamParams,
} from "./loop/context-chat-completions.js";
export type { ContextStream } from "@ctxkit/core/kit";
export type { ContextLoopOptions } from "./loop/loop-options.js";
export { fromChatCompletionUsage, fromResponseUsage } from "./loop/openai-usage.js";
export { isContextLengthError } from "./loop/is-context-length-error.js";
export {
  contextResponses,
  type ContextResponses,
  type ContextResponsesOptions,
  type ContextResponseParams,
  type ContextResponseStreamParams,
} from "./loop/context-responses.js";
export { compactResponses, ResponsesCompactionError, type CompactResponsesOptions } from "./responses/compact-responses.js";
export { fromLatestCompaction, isCompactionRecord } from "./responses/compaction-records.js";
