// One traced manager operation: its span, the events the manager emitted while it ran, and how it ended.
import type { CompactResult, ContextEventMap, ContextEventName, ContextUsage } from "@ctxkit/core";
import type { PipelineStep } from "@ctxkit/core/kit";
import { context, type Attributes, type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import * as names from "./attribute-names.js";
import { guard } from "./guard.js";
import type { StablePrefix } from "./stable-prefix.js";

export class OperationSpan {
  private isEnded = false;
  private hasCompacted = false;

  constructor(private readonly span: Span) {}

  /**
   * Calls `start` with this span active, so spans started inside (a summarizer's model call, say) are its
   * children. Whatever the context API does, `start` runs exactly once and its outcome is returned as is.
   */
  withActiveSpan<T>(start: () => T): T {
    let outcome: { value: T } | undefined;
    let failure: { error: unknown } | undefined;
    const run = () => {
      try {
        outcome = { value: start() };
      } catch (error) {
        failure = { error };
      }
    };
    guard("activating the span", () => context.with(trace.setSpan(context.active(), this.span), run));
    if (outcome === undefined && failure === undefined) run();
    if (failure !== undefined) throw failure.error;
    return outcome!.value;
  }

  /** Takes one of the manager's events, emitted while this operation ran. Events after its end are dropped. */
  onEvent<E extends ContextEventName>(event: E, payload: ContextEventMap[E]): void {
    if (this.isEnded) return;
    guard(`recording ${event}`, () => this.record(event, payload));
  }

  private record<E extends ContextEventName>(event: E, payload: ContextEventMap[E]): void {
    const { span } = this;
    if (event === "context:pre_compact") {
      const { reason, tokenCount } = payload as ContextEventMap["context:pre_compact"];
      span.setAttributes({
        [names.COMPACTION_TOKENS_BEFORE]: tokenCount,
        ...(reason === undefined ? {} : { [names.COMPACTION_REASON]: reason }),
      });
    } else if (event === "context:post_compact") {
      const { tokenCount, steps, target, shortOfTarget, receiptId, sharedPrefix, fateCounts } =
        payload as ContextEventMap["context:post_compact"];
      const strategies = appliedStrategies(steps);
      span.setAttributes({
        [names.COMPACTION_TOKENS_AFTER]: tokenCount,
        [names.COMPACTION_STRATEGIES]: strategies,
        [names.COMPACTION_TARGET]: target,
        ...(shortOfTarget === undefined ? {} : { [names.COMPACTION_SHORT_OF_TARGET]: shortOfTarget.reason }),
        ...(receiptId === undefined ? {} : { [names.COMPACTION_RECEIPT_ID]: receiptId }),
        ...(sharedPrefix === undefined
          ? {}
          : {
              [names.COMPACTION_SHARED_PREFIX_MESSAGES]: sharedPrefix.messages,
              [names.COMPACTION_SHARED_PREFIX_TOKENS]: sharedPrefix.tokens,
            }),
        ...(fateCounts === undefined
          ? {}
          : {
              [names.COMPACTION_MESSAGES_KEPT]: fateCounts.kept,
              [names.COMPACTION_MESSAGES_CLEARED]: fateCounts.cleared,
              [names.COMPACTION_MESSAGES_TRIMMED]: fateCounts.trimmed,
              [names.COMPACTION_MESSAGES_SUMMARIZED]: fateCounts.summarized,
              [names.COMPACTION_MESSAGES_DROPPED]: fateCounts.dropped,
            }),
      });
      if (strategies.length > 0) {
        this.hasCompacted = true;
        span.setAttribute(names.GEN_AI_CONVERSATION_COMPACTED, true);
      }
    } else if (event === "context:repair") {
      const { kind, toolCallIds } = payload as ContextEventMap["context:repair"];
      span.addEvent(names.EVENT_REPAIR, { [names.REPAIR_KIND]: kind, [names.REPAIR_TOOL_CALL_IDS]: [...toolCallIds] });
    } else if (event === "context:strategy_error") {
      const { strategy, error, consecutiveFailures } = payload as ContextEventMap["context:strategy_error"];
      span.addEvent(names.EVENT_STRATEGY_ERROR, {
        [names.STRATEGY_NAME]: strategy,
        [names.STRATEGY_CONSECUTIVE_FAILURES]: consecutiveFailures,
        [names.ERROR_TYPE]: errorType(error),
        [names.EXCEPTION_MESSAGE]: error instanceof Error ? error.message : String(error),
      });
    } else if (event === "context:include") {
      const { source, messageCount, tokenCount, coveredFrom, coveredThrough } = payload as ContextEventMap["context:include"];
      const attributes: Attributes = {
        [names.INCLUDE_SOURCE]: source,
        [names.INCLUDE_MESSAGE_COUNT]: messageCount,
        [names.INCLUDE_TOKENS]: tokenCount,
      };
      if (coveredFrom !== undefined) attributes[names.INCLUDE_COVERED_FROM] = coveredFrom;
      if (coveredThrough !== undefined) attributes[names.INCLUDE_COVERED_THROUGH] = coveredThrough;
      span.addEvent(names.EVENT_INCLUDE, attributes);
    } else if (event === "context:calibrate") {
      const { scale, reportedTokens, countedTokens } = payload as ContextEventMap["context:calibrate"];
      span.addEvent(names.EVENT_CALIBRATE, {
        [names.CALIBRATION_SCALE]: scale,
        [names.CALIBRATION_REPORTED_TOKENS]: reportedTokens,
        [names.CALIBRATION_COUNTED_TOKENS]: countedTokens,
      });
    }
  }

  /** The figures of the view the operation left: `usage()` right after it, and its stable prefix when it returned a view. */
  setView(usage: ContextUsage | undefined, stablePrefix: StablePrefix | undefined, messageCount?: number): void {
    guard("recording the view's figures", () => {
      const attributes: Attributes = {};
      if (usage !== undefined) {
        attributes[names.VIEW_TOKENS] = usage.tokens;
        attributes[names.VIEW_BUDGET] = usage.budget;
        attributes[names.VIEW_OVERHEAD_TOKENS] = usage.overheadTokens ?? 0;
        attributes[names.VIEW_MESSAGE_COUNT] = usage.messageCount;
        attributes[names.VIEW_COUNTER] = usage.counter;
      } else if (messageCount !== undefined) {
        attributes[names.VIEW_MESSAGE_COUNT] = messageCount;
      }
      const isCompacted = this.hasCompacted || usage?.compacted === true;
      attributes[names.VIEW_COMPACTED] = isCompacted;
      // The convention's flag is set to true only; unset means not compacted or unknown.
      if (isCompacted) attributes[names.GEN_AI_CONVERSATION_COMPACTED] = true;
      if (stablePrefix !== undefined) {
        attributes[names.VIEW_STABLE_PREFIX_MESSAGES] = stablePrefix.messages;
        attributes[names.VIEW_CACHE_STABLE_SHARE] = stablePrefix.share;
      }
      this.span.setAttributes(attributes);
    });
  }

  /** What `compact()` returned. */
  setCompactResult(result: CompactResult): void {
    guard("recording the compaction", () => {
      this.span.setAttributes({
        [names.COMPACTION_COMPACTED]: result.compacted,
        [names.COMPACTION_TOKENS_BEFORE]: result.tokensBefore,
        [names.COMPACTION_TOKENS_AFTER]: result.tokensAfter,
        [names.COMPACTION_STRATEGIES]: appliedStrategies(result.steps),
      });
      if (result.compacted) this.span.setAttribute(names.GEN_AI_CONVERSATION_COMPACTED, true);
    });
  }

  setAttributes(attributes: Attributes): void {
    guard("recording attributes", () => this.span.setAttributes(attributes));
  }

  end(): void {
    if (this.isEnded) return;
    this.isEnded = true;
    guard("ending the span", () => this.span.end());
  }

  /** Ends the span as failed: a refusal carries the budget and what the minimal view needs. */
  fail(error: unknown): void {
    guard("recording the failure", () => {
      const refusal = asRefusal(error);
      if (refusal !== undefined)
        this.span.setAttributes({ [names.REFUSAL_BUDGET]: refusal.budget, [names.REFUSAL_REQUIRED]: refusal.required });
      this.span.setAttribute(names.ERROR_TYPE, errorType(error));
      if (error instanceof Error) this.span.recordException(error);
      this.span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
    });
    this.end();
  }
}

/** A ctxkit error's stable `code`, else the error's name: low-cardinality, as `error.type` must be. */
export function errorType(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { code, name } = error as { code?: unknown; name?: unknown };
    if (typeof code === "string" && code !== "") return code;
    if (typeof name === "string" && name !== "") return name;
  }
  return "_OTHER";
}

/** A `ContextBudgetError`, recognised by its code so a second copy of core still counts. */
export function asRefusal(error: unknown): { budget: number; required: number } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, budget, required } = error as { code?: unknown; budget?: unknown; required?: unknown };
  if (code !== "CONTEXT_BUDGET" || typeof budget !== "number" || typeof required !== "number") return undefined;
  return { budget, required };
}

function appliedStrategies(steps: readonly PipelineStep[]): string[] {
  return steps.filter((step) => step.applied).map((step) => step.strategy);
}
