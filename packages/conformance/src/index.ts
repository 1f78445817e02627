// @ctxkit/conformance: prove that a context module keeps the ctxkit contract.

export { messageTextArbitrary, type TextArbitraryOptions } from "./arbitraries/text-arbitrary.js";
export { contentArbitrary, instructionArbitrary, userMessageArbitrary, assistantTextArbitrary } from "./arbitraries/message-arbitraries.js";
export {
  toolOutputArbitrary,
  toolCallIdArbitrary,
  toolCallsArbitrary,
  toolUnitArbitrary,
  HUGE_OUTPUT_MINIMUM,
  type ToolOutputOptions,
  type GeneratedCall,
} from "./arbitraries/tool-unit-arbitraries.js";
export { danglingCallArbitrary, orphanResultArbitrary, nonAdjacentResultArbitrary } from "./arbitraries/broken-arbitraries.js";
export { historyArbitrary, segmentArbitrary, type HistoryArbitraryOptions } from "./arbitraries/history-arbitrary.js";
export { budgetArbitrary, type BudgetArbitraryOptions } from "./arbitraries/budget-arbitrary.js";
export { imagePartArbitrary, nonTextPartArbitrary, historyWithNonTextPartsArbitrary } from "./arbitraries/content-part-arbitraries.js";
export { invalidMessageArbitrary, INVALID_MESSAGES, type InvalidMessage } from "./arbitraries/invalid-message-arbitrary.js";
export { sessionArbitrary, type Session, type SessionArbitraryOptions, type ViewRequest } from "./arbitraries/session-arbitrary.js";

export { CONFORMANCE_PROPERTIES, VIEW_PROPERTIES } from "./properties/all-properties.js";
export type { ConformanceProperty, PropertyContext } from "./properties/property.js";
export { PropertyViolation } from "./checks/violation.js";

export {
  runConformance,
  DEFAULT_RUNS,
  DEFAULT_CONCURRENT_ADDS,
  type ConformanceOptions,
  type ProgressEvent,
} from "./runner/run-conformance.js";
export { replayCounterexample } from "./runner/replay-counterexample.js";
export { formatReport, formatCounterexample, type FormatOptions } from "./runner/format-report.js";
export type { ConformanceReport, CheckResult, CheckStatus, Counterexample } from "./runner/report.js";

export type {
  ConformanceSubject,
  ContextManagerFactory,
  ContextModuleLike,
  SubscribeToEvents,
  ContextEventListenerLike,
} from "./subject/subject.js";
export type { CapabilityName, CapabilityFlags } from "./subject/capabilities.js";
export type { SessionSettings } from "./subject/session-settings.js";
export {
  createRecordingSummarizer,
  type RecordingSummarizer,
  type RecordedSummaryCall,
  type SummarizerRequestLike,
} from "./subject/recording-summarizer.js";
export { withStrategyModules } from "./subject/with-strategy-modules.js";
export {
  runStrategyConformance,
  STRATEGY_INVARIANT,
  MIN_RUNS_TO_JUDGE_EXERCISE,
  type StrategyConformanceOptions,
  type StrategySubject,
} from "./strategy/run-strategy-conformance.js";
export { malformedInputArbitrary, junkInputArbitrary, corruptedInputArbitrary } from "./adapter/malformed-input-arbitrary.js";
export { expectValidOrRefused } from "./adapter/expect-valid-or-refused.js";
export { portableHistoryArbitrary, type PortableHistoryOptions } from "./adapter/portable-history-arbitrary.js";
export { checkChatCompletionRequest } from "./adapter/rules/check-chat-completion-request.js";
export { checkAnthropicRequest, ANTHROPIC_MAX_CACHE_BREAKPOINTS } from "./adapter/rules/check-anthropic-request.js";
export { checkGeminiRequest } from "./adapter/rules/check-gemini-request.js";
export { checkModelPrompt } from "./adapter/rules/check-model-prompt.js";
export { createSharedStrategyState, type SharedStateWriter } from "./strategy/shared-strategy-state.js";
export {
  createStrategyContext,
  type StrategyContextOptions,
  type RecordingStrategyContext,
  type RecordedStrategyEvent,
} from "./strategy/create-strategy-context.js";
export { runAdapterConformance, runAdapterLoopConformance } from "./adapter/run-adapter-conformance.js";
export {
  DEFAULT_ADAPTER_RUNS,
  DEFAULT_LOOP_RUNS,
  type AdapterSubject,
  type AdapterConformanceOptions,
  type AdapterLoop,
  type LoopInput,
  type ScriptedReply,
  type ScriptedAnswer,
  type CountedReply,
  type ScriptedUsage,
} from "./adapter/adapter-subject.js";
export { replyTo, estimateRequestTokens } from "./adapter/reply-to.js";
export { canonicalHistory, type CanonicalHistory, type CanonicalItem } from "./adapter/canonical-history.js";
