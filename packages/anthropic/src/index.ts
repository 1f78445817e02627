// @ctxkit/anthropic: ctxkit views as Anthropic Messages requests, and Anthropic messages back into a manager.
export {
  toAnthropicMessages,
  DEFAULT_OPENING_USER_TEXT,
  type AnthropicRequest,
  type AnthropicMessageParam,
  type ToAnthropicOptions,
} from "./to-anthropic-messages.js";
export { fromAnthropicMessages, type FromAnthropicOptions } from "./from-anthropic-messages.js";
export { anthropicProvenance, EARLIER_SUMMARY_LABEL } from "./anthropic-provenance.js";
export { MAX_CACHE_BREAKPOINTS, type CacheOptions } from "./cache-breakpoints.js";
export {
  contextMessages,
  type ContextMessages,
  type ContextMessageParams,
  type ContextMessageStreamParams,
  type ContextMessagesOptions,
} from "./loop/context-messages.js";
export type { ContextStream } from "@ctxkit/core/kit";
export { fromAnthropicUsage } from "./loop/anthropic-usage.js";
export { isPromptTooLongError } from "./loop/is-prompt-too-long-error.js";
export {
  anthropicCompactionSummarizer,
  CompactionSummaryError,
  type CompactionSummarizer,
  type CompactionSummarizerOptions,
  type CompactionSummarizerRequest,
} from "./compaction/compaction-summarizer.js";
export { toCompactionRecords, fromLatestCompaction, isCompactionRecord } from "./compaction/compaction-records.js";
