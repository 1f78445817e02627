// @ctxkit/core: what an agent builder needs: messages, the manager and its config, errors, events, tokens,
// the built-in strategies, context tools and the coordinator. Module, strategy, store and adapter authors find
// the rest in `@ctxkit/core/kit` (architecture/layers.md, "Entries"). At most 100 names: root-surface.test.ts counts them.

export {
  ContextError,
  ContextValidationError,
  ContextBudgetError,
  ContextConfigError,
  ModuleLoadError,
  MountPointError,
  ContextClosedError,
  ContextRequestError,
  ContextCounterError,
  ContextTimeoutError,
  ContextStateConflictError,
  ContextHistoryConflictError,
  ContextArgumentError,
  ContextSummarizerError,
  ContextUndoError,
  type ClosedReason,
  type ContextErrorCode,
} from "./errors.js";
export {
  ContextLockedError,
  ContextStoreAccessError,
  ContextStoreCorruptError,
  ContextStoreUnavailableError,
} from "./store/store-errors.js";
export { AdapterInputError } from "./adapters/adapter-input-error.js";
export { stripReasoning } from "./adapters/strip-reasoning.js";

export type {
  Role,
  Message,
  SystemMessage,
  DeveloperMessage,
  UserMessage,
  AssistantMessage,
  ToolMessage,
  ToolCall,
  ContentPart,
  TextPart,
  ImageUrlPart,
  InputAudioPart,
  FilePart,
  RefusalPart,
  OtherContentPart,
  MessageMetadata,
} from "./messages/message.js";
export { parseMessage, parseMessages } from "./messages/parse-message.js";
export { toProviderMessages } from "./messages/to-provider-messages.js";

export type {
  ContextManager,
  RequestOptions,
  Provider,
  ProviderInfo,
  CompactCapability,
  CompactResult,
  OverflowRecoveryCapability,
  UsageCapability,
  ContextUsage,
  ProviderUsage,
  ProviderUsageCapability,
  ShouldCompactCapability,
  ConditionalReplaceCapability,
} from "./protocol.js";
export {
  canCompact,
  canRecoverOverflow,
  canReportUsage,
  canTakeProviderUsage,
  canTellShouldCompact,
  canReplaceConditionally,
} from "./protocol.js";

export {
  CONTEXT_EVENTS,
  type CompactionReason,
  type ContextEventMap,
  type ContextEventName,
} from "./events.js";

export type { TokenCounter } from "./tokens/token-counter.js";
export { tiktokenCounter } from "./tokens/tiktoken-counter.js";
export { estimateCounter } from "./tokens/estimate-counter.js";

export { createContextManager, type CreateContextManagerOptions } from "./engine/create-context-manager.js";
export type { Preset, ContextConfig, StrategyEntry, EventHandler } from "./engine/context-config.js";
export { MemoryMessageStore } from "./store/memory-message-store.js";

export { clearToolResults } from "./strategies/clear-tool-results.js";
export { trimLongText } from "./strategies/trim-long-text.js";
export { truncate } from "./strategies/truncate.js";
export { slidingWindow } from "./strategies/sliding-window.js";
export { importance } from "./strategies/importance.js";
export { offloadToolResults } from "./strategies/offload-tool-results.js";
export { microcompact } from "./strategies/microcompact.js";

export { ContextOverflowError } from "./provider-loop/context-overflow-error.js";
export { ContextStreamError } from "./provider-loop/context-stream-error.js";
export { sendWithRecovery, type SendWithRecoveryOptions } from "./provider-loop/send-with-recovery.js";
export { reportProviderUsage } from "./provider-loop/report-provider-usage.js";

export { createContextTools, canPin, type ContextTools, type PinCapability } from "./tools/context-tools.js";

export { createCoordinator, type Coordinator } from "./coordinator/create-coordinator.js";
export { mountPlan, type MountPlan, type MountPlanInput } from "./modules/mount-plan.js";
export { loadMountPlan } from "./modules/load-mount-plan.js";
