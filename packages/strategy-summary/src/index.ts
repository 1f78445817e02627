// @ctxkit/strategy-summary: LLM summary checkpoints as a ctxkit pipeline strategy.
export { createSummaryStrategy, SUMMARY_STRATEGY_NAME } from "./summary-strategy.js";
export {
  withPostSummaryHooks,
  todoListReminder,
  currentFilesReminder,
  REMINDER_SOURCE,
  type PostSummaryHook,
  type PostSummaryHookContext,
} from "./post-summary-hooks.js";
export { createSessionMemoryStrategy, SESSION_MEMORY_STRATEGY_NAME, type SessionMemoryOptions } from "./session-memory.js";
export type { SummaryStrategyOptions, SummaryStrategyConfig } from "./options.js";
export type { Summarizer, SummarizerRequest, SummarizerConversation } from "./summarizer.js";
export { extractiveSummarizer, type ExtractiveSummarizerOptions } from "./extractive-summarizer.js";
export { openAIChatSummarizer, type OpenAIChatClient, type OpenAIChatSummarizerOptions } from "./openai-chat-summarizer.js";
export type { CompletionProvider, CompletionRequest } from "./provider-summarizer.js";
export { DEFAULT_PROMPTS, type SummaryPrompts } from "./prompts.js";
export type { SummaryMetadata } from "./summary-message.js";
export { meta, mount, createStrategy, configSchema } from "./module.js";
