// What one instrumented manager records: spans for its operations, and metrics from its views and events.
import { AsyncLocalStorage } from "node:async_hooks";
import type { ContextEventMap, ContextEventName, ContextUsage, Message } from "@ctxkit/core";
import { type Attributes, INVALID_SPAN_CONTEXT, type Meter, SpanKind, trace, type Tracer } from "@opentelemetry/api";
import * as names from "./attribute-names.js";
import { guard, guarded } from "./guard.js";
import { createInstruments, type Instruments } from "./instruments.js";
import { asRefusal, errorType, OperationSpan } from "./operation-span.js";
import { StablePrefixTracker } from "./stable-prefix.js";

export type OperationName = "view" | "compact" | "recover_overflow" | "report_usage";

const SPAN_NAMES: Record<OperationName, string> = {
  view: names.SPAN_VIEW,
  compact: names.SPAN_COMPACT,
  recover_overflow: names.SPAN_RECOVER_OVERFLOW,
  report_usage: names.SPAN_REPORT_USAGE,
};

export interface StartedOperation {
  readonly span: OperationSpan;
  /** Calls into the manager with this operation current: its events and child spans land on it. */
  run<T>(call: () => T): T;
}

export class ManagerTelemetry {
  private readonly instruments: Instruments;
  private readonly stablePrefix = new StablePrefixTracker();
  /**
   * The operation a manager event belongs to. Core's engine runs each operation in the async context of
   * the call that queued it, so an event lands on its own request's span even when calls overlap.
   */
  private readonly current = new AsyncLocalStorage<OperationSpan>();

  constructor(
    private readonly tracer: Tracer,
    meter: Meter,
    /** On every span and every metric point. */
    private readonly attributes: Attributes,
    private readonly sessionId: () => string | undefined,
  ) {
    this.instruments = createInstruments(meter);
  }

  /** Starts an operation's span; `run` calls into the manager with that span current. */
  start(operation: OperationName): StartedOperation {
    const span = new OperationSpan(
      guarded(
        `starting ${SPAN_NAMES[operation]}`,
        () =>
          this.tracer.startSpan(SPAN_NAMES[operation], {
            kind: SpanKind.INTERNAL,
            attributes: this.spanAttributes(operation),
          }),
        () => trace.wrapSpanContext(INVALID_SPAN_CONTEXT),
      ),
    );
    return { span, run: (call) => this.current.run(span, () => span.withActiveSpan(call)) };
  }

  /** Records a view the manager returned, on its span and in the metrics, and ends the span. */
  finishView(span: OperationSpan, operation: OperationName, view: readonly Message[], usage: ContextUsage | undefined): void {
    const stablePrefix = guarded(
      "comparing the view with the previous one",
      () => this.stablePrefix.next(view),
      () => undefined,
    );
    span.setView(usage, stablePrefix, view.length);
    const attributes = { ...this.attributes, [names.OPERATION_NAME]: operation };
    guard("recording the view metrics", () => {
      if (usage !== undefined) this.instruments.viewTokens.record(usage.tokens, attributes);
      if (stablePrefix !== undefined) this.instruments.cacheStableShare.record(stablePrefix.share, attributes);
    });
    span.end();
  }

  /** Ends a failed operation's span; a refusal is counted. */
  fail(span: OperationSpan, error: unknown): void {
    if (asRefusal(error) !== undefined) {
      guard("counting the refusal", () => this.instruments.refusals.add(1, { ...this.attributes, [names.ERROR_TYPE]: errorType(error) }));
    }
    span.fail(error);
  }

  /** Takes every event of the manager: metrics for all, and a span event for those of a traced operation. */
  onEvent<E extends ContextEventName>(event: E, payload: ContextEventMap[E]): void {
    guard(`recording ${event}`, () => {
      const { instruments, attributes } = this;
      if (event === "context:post_compact") {
        const { durationMs, reason } = payload as ContextEventMap["context:post_compact"];
        const withReason = reason === undefined ? attributes : { ...attributes, [names.COMPACTION_REASON]: reason };
        instruments.compactions.add(1, withReason);
        instruments.compactionDuration.record(durationMs / 1_000, withReason);
      } else if (event === "context:repair") {
        instruments.repairs.add(1, {
          ...attributes,
          [names.REPAIR_KIND]: (payload as ContextEventMap["context:repair"]).kind,
        });
      } else if (event === "context:strategy_error") {
        instruments.strategyErrors.add(1, {
          ...attributes,
          [names.STRATEGY_NAME]: (payload as ContextEventMap["context:strategy_error"]).strategy,
        });
      }
    });
    this.current.getStore()?.onEvent(event, payload);
  }

  private spanAttributes(operation: OperationName): Attributes {
    const sessionId = guarded("reading the session id", this.sessionId, () => undefined);
    return {
      ...this.attributes,
      [names.OPERATION_NAME]: operation,
      ...(sessionId === undefined ? {} : { [names.GEN_AI_CONVERSATION_ID]: sessionId }),
    };
  }
}
