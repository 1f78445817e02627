// @ctxkit/core: the protocol every ctxkit module speaks, and the mechanisms they share.

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
  type ClosedReason,
  type ContextErrorCode,
  type ErrorIssue,
} from "./errors.js";
export { AdapterInputError } from "./adapters/adapter-input-error.js";
export { stripReasoning, type StripReasoningOptions } from "./adapters/strip-reasoning.js";

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
  CtxkitMetadata,
} from "./messages/message.js";
export { isPinned, hasToolCalls, isInstruction, isSynthetic } from "./messages/message.js";
export { messageSchema, toolCallSchema, contentPartSchema, messageMetadataSchema } from "./messages/message-schema.js";
export { parseMessage, parseMessages } from "./messages/parse-message.js";
export { parseDecodedMessage } from "./messages/parse-decoded-message.js";
export { deepFreeze } from "./messages/deep-freeze.js";
export { toProviderMessage, toProviderMessages } from "./messages/to-provider-messages.js";
export { SUMMARY_SOURCE, isSummaryEntry, readSummaryCoverage } from "./messages/summary-coverage.js";
export { findNonJson, type NonJsonValue } from "./messages/find-non-json.js";

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
} from "./protocol.js";
export {
  isContextManager,
  canCompact,
  canRecoverOverflow,
  canReportUsage,
  canTakeProviderUsage,
  canTellShouldCompact,
} from "./protocol.js";

export { CONTEXT_EVENTS, type CompactionReason, type ContextEventMap, type ContextEventName, type ContextEventListener } from "./events.js";

export type { TokenCounter } from "./tokens/token-counter.js";
export { tiktokenCounter, type TiktokenCounterOptions, type TiktokenEncoding, type TiktokenRanks } from "./tokens/tiktoken-counter.js";
export { estimateCounter } from "./tokens/estimate-counter.js";
export { resolveTokenCounter, type TokenizerOption } from "./tokens/resolve-token-counter.js";
export {
  countMessageTokens,
  countContentTokens,
  MESSAGE_OVERHEAD_TOKENS,
  IMAGE_TOKENS,
} from "./tokens/count-message-tokens.js";

export { resolveBudget, DEFAULT_SAFETY_MARGIN, type BudgetOptions } from "./budget/resolve-budget.js";

export type { ToolUnit, ToolPairViolation, ToolPairViolationKind, ToolPairRepair } from "./units/tool-unit.js";
export { findToolUnits } from "./units/find-tool-units.js";
export { checkToolPairs } from "./units/check-tool-pairs.js";
export { repairToolPairs, type RepairResult } from "./units/repair-tool-pairs.js";

export type {
  Strategy,
  StrategyContext,
  StrategyResult,
  StrategyStateStore,
  ObserveContext,
  ViewDraft,
  ViewEntry,
  ContextEdit,
  EntrySource,
  PipelineStep,
  PipelineResult,
} from "./pipeline/strategy.js";
export { createViewDraft, isProtectedEntry, canDropUnit } from "./pipeline/view-draft.js";
export { runPipeline, DEFAULT_STRATEGY_TIMEOUT_MS, type RunPipelineOptions } from "./pipeline/run-pipeline.js";
export { withTimeout } from "./pipeline/with-timeout.js";
export { CircuitBreaker, type CircuitBreakerOptions } from "./pipeline/circuit-breaker.js";
export { createMemoryStateStore } from "./pipeline/memory-state-store.js";

export { clearToolResults, type ClearToolResultsOptions } from "./strategies/clear-tool-results.js";
export { trimLongText, type TrimLongTextOptions } from "./strategies/trim-long-text.js";
export { truncate, type TruncateOptions } from "./strategies/truncate.js";
export { slidingWindow, type SlidingWindowOptions } from "./strategies/sliding-window.js";
export { importance, type ImportanceOptions, type ImportanceWeights } from "./strategies/importance.js";
export { offloadToolResults, type OffloadToolResultsOptions } from "./strategies/offload-tool-results.js";
export { microcompact, isRerunnableToolResult, type MicrocompactOptions, type ToolResultClassifier } from "./strategies/microcompact.js";
export { shortenToFit, type ShortenToFitOptions } from "./strategies/shorten-to-fit.js";
export { digestToolResult, listIdentifiers } from "./strategies/tool-result-digest.js";
export {
  BUILT_IN_STRATEGIES,
  BUILT_IN_STRATEGY_NAMES,
  DEFAULT_PIPELINE,
  type BuiltInStrategyEntry,
  createBuiltInStrategy,
  isBuiltInStrategyName,
  type BuiltInStrategyName,
  type BuiltInStrategyOptions,
} from "./strategies/built-in-strategies.js";

export {
  createCoordinator,
  MOUNT_POINTS,
  type Coordinator,
  type CoordinatorOptions,
  type HandlerErrorSource,
  type MountPoint,
  type HookRegistry,
  type HookHandler,
} from "./coordinator/create-coordinator.js";
export type { ContextModule, StrategyModule, CtxkitModule, ModuleMeta, MountResult } from "./modules/module.js";
export { loadModule } from "./modules/load-module.js";
export { parseConfig } from "./modules/parse-config.js";
export {
  mountPlanSchema,
  mountPlan,
  resolveStrategyModules,
  type MountPlan,
  type MountPlanInput,
  type MountPlanOptions,
} from "./modules/mount-plan.js";
export { loadMountPlan, MOUNT_PLAN_VARIABLE, type LoadMountPlanOptions } from "./modules/load-mount-plan.js";

export type { MessageStore, StoredSession, StoreUpdate, StateSnapshot, StateChange } from "./store/message-store.js";
export { MemoryMessageStore } from "./store/memory-message-store.js";

export { ContextEngine, type ContextEngineOptions } from "./engine/context-engine.js";
export { createContextManager, type CreateContextManagerOptions } from "./engine/create-context-manager.js";
export {
  contextConfigSchema,
  FALLBACK_BUDGET,
  PRESETS,
  type Preset,
  type ContextConfig,
  type ResolvedContextConfig,
  type StrategyEntry,
  type EventHandler,
} from "./engine/context-config.js";
export { mountContextManager } from "./engine/mount-context-manager.js";
export { presetStrategies } from "./engine/resolve-strategies.js";

export { ContextOverflowError } from "./provider-loop/context-overflow-error.js";
export { sendWithRecovery, type SendWithRecoveryOptions } from "./provider-loop/send-with-recovery.js";
export { reportProviderUsage } from "./provider-loop/report-provider-usage.js";

export { createContextTools, canPin, type ContextTools, type PinCapability } from "./tools/context-tools.js";
export { PIN_MESSAGE_TOOL, UNPIN_MESSAGE_TOOL, RETRIEVE_TOOL_RESULT_TOOL, type FunctionToolDefinition } from "./tools/tool-definitions.js";
