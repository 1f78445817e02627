// Every name this package emits, in one place: the GenAI conventions are still in development, so the few
// convention names used are kept here as plain strings rather than imported from an incubating entry point.

/** The instrumentation scope: the tracer's and the meter's name. */
export const INSTRUMENTATION_NAME = "@ctxkit/opentelemetry";

// Convention names used on purpose.
/** Set to `true` only, when the view sent is compacted; never `false` (unset means unknown). */
export const GEN_AI_CONVERSATION_COMPACTED = "gen_ai.conversation.compacted";
/** The manager's session id, when it has one. */
export const GEN_AI_CONVERSATION_ID = "gen_ai.conversation.id";
/** What the provider counted for the last view, as `reportUsage` hands it over. */
export const GEN_AI_USAGE_INPUT_TOKENS = "gen_ai.usage.input_tokens";
export const GEN_AI_USAGE_OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
/** A failure's class: a ctxkit error's stable `code`, else the error's name. */
export const ERROR_TYPE = "error.type";
export const EXCEPTION_MESSAGE = "exception.message";

// Span names.
export const SPAN_VIEW = "ctxkit.context.view";
export const SPAN_COMPACT = "ctxkit.context.compact";
export const SPAN_RECOVER_OVERFLOW = "ctxkit.context.recover_overflow";
export const SPAN_REPORT_USAGE = "ctxkit.context.report_usage";

// The view's figures (span attributes).
export const OPERATION_NAME = "ctxkit.operation.name";
export const VIEW_TOKENS = "ctxkit.view.tokens";
export const VIEW_BUDGET = "ctxkit.view.budget";
export const VIEW_OVERHEAD_TOKENS = "ctxkit.view.overhead_tokens";
export const VIEW_MESSAGE_COUNT = "ctxkit.view.message_count";
/** Whether the view holds compaction decisions, made by this request or an earlier one. */
export const VIEW_COMPACTED = "ctxkit.view.compacted";
export const VIEW_COUNTER = "ctxkit.view.counter";
/** Leading messages identical to the previous view's: the part a provider's prompt cache can still hit. */
export const VIEW_STABLE_PREFIX_MESSAGES = "ctxkit.view.stable_prefix.messages";
/** Share (0 to 1) of the view's tokens in that stable prefix. */
export const VIEW_CACHE_STABLE_SHARE = "ctxkit.view.cache_stable_share";

// A compaction that ran during the operation (span attributes; the reason is a metric attribute too).
export const COMPACTION_REASON = "ctxkit.compaction.reason";
export const COMPACTION_TOKENS_BEFORE = "ctxkit.compaction.tokens_before";
export const COMPACTION_TOKENS_AFTER = "ctxkit.compaction.tokens_after";
/** The tokens the compaction aimed for. */
export const COMPACTION_TARGET = "ctxkit.compaction.target";
/** Why the view ended above that target, when it did: `protected` or `strategies`. */
export const COMPACTION_SHORT_OF_TARGET = "ctxkit.compaction.short_of_target";
/** The strategies that changed the view, in pipeline order. */
export const COMPACTION_STRATEGIES = "ctxkit.compaction.strategies";
/** The compaction's receipt, for `getCompaction(id)`. */
export const COMPACTION_RECEIPT_ID = "ctxkit.compaction.receipt_id";
/** Leading messages, and their tokens, the compacted view shares with the previous request's view: where the prompt cache breaks. */
export const COMPACTION_SHARED_PREFIX_MESSAGES = "ctxkit.compaction.shared_prefix.messages";
export const COMPACTION_SHARED_PREFIX_TOKENS = "ctxkit.compaction.shared_prefix.tokens";
/** History messages by what the compaction left of them, from its receipt. */
export const COMPACTION_MESSAGES_KEPT = "ctxkit.compaction.messages.kept";
export const COMPACTION_MESSAGES_CLEARED = "ctxkit.compaction.messages.cleared";
export const COMPACTION_MESSAGES_TRIMMED = "ctxkit.compaction.messages.trimmed";
export const COMPACTION_MESSAGES_SUMMARIZED = "ctxkit.compaction.messages.summarized";
export const COMPACTION_MESSAGES_DROPPED = "ctxkit.compaction.messages.dropped";
/** `compact()` only: whether there was anything to compact. */
export const COMPACTION_COMPACTED = "ctxkit.compaction.compacted";

// A refusal: the minimal view does not fit (`ContextBudgetError`).
export const REFUSAL_BUDGET = "ctxkit.refusal.budget";
export const REFUSAL_REQUIRED = "ctxkit.refusal.required";

// Span events, one per manager event during the operation, and their attributes.
export const EVENT_REPAIR = "ctxkit.repair";
export const REPAIR_KIND = "ctxkit.repair.kind";
export const REPAIR_TOOL_CALL_IDS = "ctxkit.repair.tool_call_ids";
export const EVENT_STRATEGY_ERROR = "ctxkit.strategy_error";
export const STRATEGY_NAME = "ctxkit.strategy.name";
export const STRATEGY_CONSECUTIVE_FAILURES = "ctxkit.strategy.consecutive_failures";
export const EVENT_INCLUDE = "ctxkit.include";
export const INCLUDE_SOURCE = "ctxkit.include.source";
export const INCLUDE_MESSAGE_COUNT = "ctxkit.include.message_count";
export const INCLUDE_TOKENS = "ctxkit.include.tokens";
export const INCLUDE_COVERED_FROM = "ctxkit.include.covered_from";
export const INCLUDE_COVERED_THROUGH = "ctxkit.include.covered_through";
export const EVENT_CALIBRATE = "ctxkit.calibrate";
export const CALIBRATION_SCALE = "ctxkit.calibration.scale";
export const CALIBRATION_REPORTED_TOKENS = "ctxkit.calibration.reported_tokens";
export const CALIBRATION_COUNTED_TOKENS = "ctxkit.calibration.counted_tokens";

// Metric names.
export const METRIC_VIEW_TOKENS = "ctxkit.view.tokens";
export const METRIC_CACHE_STABLE_SHARE = "ctxkit.view.cache_stable_share";
export const METRIC_COMPACTION_DURATION = "ctxkit.compaction.duration";
export const METRIC_COMPACTIONS = "ctxkit.compactions";
export const METRIC_REFUSALS = "ctxkit.refusals";
export const METRIC_REPAIRS = "ctxkit.repairs";
export const METRIC_STRATEGY_ERRORS = "ctxkit.strategy_errors";
