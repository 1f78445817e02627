// @ctxkit/core/kit: what module, strategy and store authors build with, beside what `@ctxkit/core` exports.
// Each block below is one audience; keep additions in their own block.

// ── Strategies: the pipeline's types and the view-draft helpers a strategy edits a view with ──
export type {
  Strategy,
  StrategyContext,
  PreviousRequest,
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
export {
  createViewDraft,
  isProtectedEntry,
  canDropUnit,
  findContextEdit,
  replaceEntryMessage,
  type EntryProtection,
} from "./pipeline/view-draft.js";
export { reachFor } from "./pipeline/reach-for.js";
export { runPipeline, type RunPipelineOptions } from "./pipeline/run-pipeline.js";
export { withTimeout } from "./pipeline/with-timeout.js";
export { createMemoryStateStore } from "./pipeline/memory-state-store.js";
export { SUMMARY_SOURCE, isSummaryEntry, readSummaryCoverage } from "./messages/summary-coverage.js";
export {
  createBuiltInStrategy,
  BUILT_IN_STRATEGY_NAMES,
  BUILT_IN_STRATEGY_SCHEMAS,
  type BuiltInStrategyName,
  type BuiltInStrategyOptions,
} from "./strategies/built-in-strategies.js";
export type { ClearToolResultsOptions } from "./strategies/clear-tool-results.js";
export type { TrimLongTextOptions } from "./strategies/trim-long-text.js";
export type { TruncateOptions } from "./strategies/truncate.js";
export type { SlidingWindowOptions } from "./strategies/sliding-window.js";
export type { ImportanceOptions, ImportanceWeights } from "./strategies/importance.js";
export type { OffloadToolResultsOptions } from "./strategies/offload-tool-results.js";
export { isRerunnableToolResult, type MicrocompactOptions, type ToolResultClassifier } from "./strategies/microcompact.js";

// ── Units: tool-call pairs, the unit a strategy keeps or drops whole ──
export type { ToolUnit, ToolPairViolation, ToolPairViolationKind, ToolPairRepair } from "./units/tool-unit.js";
export { findToolUnits } from "./units/find-tool-units.js";
export { repairToolPairs, type RepairResult } from "./units/repair-tool-pairs.js";

// ── Messages and tokens: validation, freezing and counting below the agent builder's level ──
export { parseDecodedMessage } from "./messages/parse-decoded-message.js";
export { toProviderMessage } from "./messages/to-provider-messages.js";
// Built when the kit loads, the one object parseMessage falls back to: `@ctxkit/core` and `@ctxkit/core/engine` build it on first use.
import { messageSchemaOnFirstUse } from "./messages/message-schema.js";
export const messageSchema = messageSchemaOnFirstUse();
export { deepFreeze } from "./messages/deep-freeze.js";
export { resolveTokenCounter } from "./tokens/resolve-token-counter.js";
export type { TiktokenCounterOptions, TiktokenEncoding, TiktokenRanks } from "./tokens/tiktoken-counter.js";
export { resolveBudget, type BudgetOptions } from "./budget/resolve-budget.js";

// ── Modules: the module shape, config parsing, mounting a manager on a coordinator ──
export type { ContextModule, StrategyModule, CtxkitModule, ModuleMeta, MountResult } from "./modules/module.js";
export { loadModule } from "./modules/load-module.js";
export { parseConfig } from "./modules/parse-config.js";
export { durationMsSchema, MAX_DURATION_MS } from "./modules/duration-ms.js";
export { mountPlanSchema, resolveStrategyModules, type MountPlanOptions } from "./modules/mount-plan.js";
export type { LoadMountPlanOptions } from "./modules/load-mount-plan.js";
export type { CoordinatorOptions, MountPoint, HookRegistry, HookHandler, HookOptions } from "./coordinator/create-coordinator.js";
export { contextConfigSchema, type ResolvedContextConfig } from "./engine/context-config.js";
export type { ContextEngineOptions } from "./engine/context-engine.js";
export { mountContextManager } from "./engine/mount-context-manager.js";

// ── Store modules: a store package's meta, configSchema, mount and factory from its store ──
export { defineStoreModule, type StoreModule, type StoreModuleDefinition } from "./modules/define-store-module.js";

// ── Stores: the contract, the memory store, and the store kit (write ordering, group commit, the failure latch) ──
export type { MessageStore, StoredSession, StoreUpdate, StateSnapshot, StateChange, ReplaceExpectation } from "./store/message-store.js";
export { MemoryMessageStore } from "./store/memory-message-store.js";
export { WriteQueue, type Grouping, type WriteQueueOptions } from "./store/write-queue.js";
export { FailureLatch } from "./store/failure-latch.js";
export {
  ContextLockedError,
  ContextStoreAccessError,
  ContextStoreCorruptError,
  ContextStoreUnavailableError,
  type CorruptRecord,
  type LockOwner,
  misusedStore,
} from "./store/store-errors.js";
export { credentialsOf, redactCredentials, redactText, REDACTED, type CredentialSource } from "./store/redact-credentials.js";

// --- Adapter kit: shared by the adapters between ctxkit messages and each SDK's shapes. ---
export { AdapterInputError, type AdapterInputProblem } from "./adapters/adapter-input-error.js";
export { readAdapterInput, isRecord, InputList, InputRecord, type UnknownRecord } from "./adapters/input-reader.js";
export { acceptMessage } from "./adapters/accept-message.js";
export { unsupportedPartError, type UnsupportedPart } from "./adapters/unsupported-part.js";
export { textOfPart, textOfContent, partsOfContent } from "./adapters/content-text.js";
export {
  toolInputFromArguments,
  toolValueFromArguments,
  argumentsFromToolInput,
  UNPARSED_ARGUMENTS_KEY,
  type ToolInput,
} from "./adapters/tool-arguments.js";
export { encodeToolCallId, decodeToolCallId, isSafeToolCallId } from "./adapters/tool-call-id.js";
export { stripReasoning, isReasoningPart, REASONING_PART_TYPES, type StripReasoningOptions } from "./adapters/strip-reasoning.js";
export {
  applyProvenancePolicy,
  canVerify,
  isProviderNativePart,
  isSameModel,
  provenanceOf,
  providerFamily,
  wasReadBy,
  withProvenance,
  type ProvenancePolicyOptions,
  type ProvenanceTarget,
} from "./adapters/provenance.js";
export type { Provenance } from "./messages/message.js";
export {
  parseProviderUsage,
  type ProviderUsageFields,
  type ParsedProviderUsage,
  type UsageProblem,
} from "./provider-loop/parse-provider-usage.js";
export type { ReportProviderUsageOptions } from "./provider-loop/report-provider-usage.js";
export { runTurn, TurnInFlight } from "./provider-loop/turn-in-flight.js";
export { HistorySync } from "./provider-loop/history-sync.js";
export { storedStream, type ContextStream, type StreamAssembly, type StoredStreamOptions } from "./provider-loop/stored-stream.js";
// --- End of the adapter kit. ---

// ── Below the agent builder's level: message predicates, tool-pair checks, token counting, the engine class and the
// constants and types modules, strategies, stores and adapters are written with (kept out of `@ctxkit/core`) ──
export { isPinned, hasToolCalls, isInstruction, isSynthetic, type CtxkitMetadata } from "./messages/message.js";
export { checkToolPairs } from "./units/check-tool-pairs.js";
export { countMessageTokens } from "./tokens/count-message-tokens.js";
export type { TokenizerOption } from "./tokens/resolve-token-counter.js";
export { isContextManager } from "./protocol.js";
// Compaction receipts, explainView, undo and partial compaction: optional capabilities the engine has; tools check with the guards.
export {
  canCompactThrough,
  canExplainView,
  canListCompactions,
  canUndoCompaction,
  type CompactOptions,
  type PartialCompactCapability,
  type UndoCompactionCapability,
  type UndoCompactionResult,
  type CompactionReceipt,
  type CompactionReceiptCapability,
  type CompactionSummary,
  type CompactionDecisionRecord,
  type ExplainedMessage,
  type ExplainedSyntheticEntry,
  type ExplainViewCapability,
  type MessageFate,
  type MessageFateRun,
  type ViewExplanation,
  type ViewForm,
  type ViewReason,
  type ViewTotals,
} from "./protocol.js";
export type { ContextEventListener, TargetShortfall } from "./events.js";
export type { ErrorIssue, UndoRefusal } from "./errors.js";
export { ContextEngine } from "./engine/context-engine.js";
export { FALLBACK_BUDGET } from "./engine/context-config.js";
// When a view compacts under prompt caching, and to what: the price models and the decision, for tools that replay or explain it.
export { CACHE_PRICE_MODELS, type CachePriceModel, type CachePricing } from "./engine/cache-price-model.js";
export { type CompactionDecision, type CompactionFigures, decideCompaction } from "./engine/compaction-decision.js";
export { PIN_MESSAGE_TOOL, UNPIN_MESSAGE_TOOL, RETRIEVE_TOOL_RESULT_TOOL, type FunctionToolDefinition } from "./tools/tool-definitions.js";
