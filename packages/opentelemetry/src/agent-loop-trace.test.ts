// A short agent loop, traced: a repair, a compaction with a failing strategy and a summary, a forced
// compaction, an overflow recovery, reported usage and a refusal, read back from in-memory exporters.
import { ContextBudgetError, type ContextEventMap, type ContextUsage, createContextManager } from "@ctxkit/core";
import type { Strategy } from "@ctxkit/core/kit";
import { assistantMessage, systemMessage, toolCallMessage, toolResultMessage, userMessage } from "@ctxkit/core/testing";
import { MemoryMessageStore } from "@ctxkit/context-simple";
import { createSummaryStrategy, extractiveSummarizer } from "@ctxkit/strategy-summary";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { beforeAll, describe, expect, it } from "vitest";
import { createInMemoryTelemetry, histogramsBy, pointAttributes, sumsBy } from "../test/__fixtures__/in-memory-telemetry.js";
import { instrumentContextManager } from "./index.js";

const BUDGET = { tokenBudget: 600 };
const flaky: Strategy = {
  name: "flaky",
  apply() {
    throw new Error("flaky failed");
  },
};

interface Loop {
  spans: ReadableSpan[];
  metrics: Awaited<ReturnType<ReturnType<typeof createInMemoryTelemetry>["metrics"]>>;
  /** `usage()` of the bare manager right after each request that returned a view. */
  usages: ContextUsage[];
  postCompacts: ContextEventMap["context:post_compact"][];
  strategyErrors: number;
  refusal: unknown;
}

async function runLoop(): Promise<Loop> {
  const telemetry = createInMemoryTelemetry();
  const manager = await createContextManager({
    store: new MemoryMessageStore("session-7"),
    tokenizer: "estimate",
    strategies: [flaky, "clear-tool-results", createSummaryStrategy({ summarizer: extractiveSummarizer() }), "truncate"],
  });
  const postCompacts: ContextEventMap["context:post_compact"][] = [];
  let strategyErrors = 0;
  manager.addEventHandler((event, payload) => {
    if (event === "context:post_compact") postCompacts.push(payload as ContextEventMap["context:post_compact"]);
    if (event === "context:strategy_error") strategyErrors += 1;
  });
  const context = instrumentContextManager(manager, {
    tracer: telemetry.tracerProvider.getTracer("test"),
    meter: telemetry.meterProvider.getMeter("test"),
    attributes: { "agent.name": "reader" },
  });
  const usages: ContextUsage[] = [];
  const request = async () => {
    await context.getMessagesForRequest(BUDGET);
    usages.push((await manager.usage())!);
  };

  await context.addMessage(systemMessage("You are a terse assistant."));
  await context.addMessage(userMessage("Read a.txt"));
  await context.addMessage(toolCallMessage("call_1"));
  await context.addMessage(toolResultMessage("call_1", "alpha ".repeat(20)));
  await context.addMessage(assistantMessage("a.txt says alpha."));
  await request(); // 1: fits, nothing to do
  await context.addMessage(userMessage("Read b.txt"));
  await context.addMessage(toolCallMessage("call_2")); // the process died before its result
  await context.addMessage(userMessage("Still there?"));
  await request(); // 2: the dangling call is repaired
  await context.addMessage(toolCallMessage("call_3"));
  await context.addMessage(toolResultMessage("call_3", "beta ".repeat(400)));
  await context.addMessage(assistantMessage("b.txt says beta."));
  await request(); // 3: over the threshold: flaky fails, the summary replaces the oldest turns
  await context.compact!(BUDGET);
  await context.addMessage(userMessage("Read c.txt"));
  await context.addMessage(toolCallMessage("call_4"));
  await context.addMessage(toolResultMessage("call_4", "delta ".repeat(120)));
  await context.addMessage(assistantMessage("c.txt says delta."));
  await context.addMessage(userMessage("Thanks."));
  await context.addMessage(assistantMessage("You are welcome."));
  await request(); // 4: fits again
  await context.recoverOverflow!(new Error("context_length_exceeded"), BUDGET);
  usages.push((await manager.usage())!);
  await context.reportUsage!({ inputTokens: 120, outputTokens: 9 });
  await context.addMessage(userMessage("gamma ".repeat(600)));
  const refusal = await context.getMessagesForRequest(BUDGET).catch((error: unknown) => error);

  const result = {
    spans: telemetry.spans(),
    metrics: await telemetry.metrics(),
    usages,
    postCompacts,
    strategyErrors,
    refusal,
  };
  await context.close!();
  await telemetry.shutdown();
  return result;
}

let loop: Loop;
beforeAll(async () => {
  loop = await runLoop();
});

const spanNamed = (name: string, index = 0) => loop.spans.filter((span) => span.name === name)[index]!;

describe("the spans of an agent loop", () => {
  it("should record one internal span per operation, in call order", () => {
    expect(loop.spans.map((span) => span.name)).toEqual([
      "ctxkit.context.view",
      "ctxkit.context.view",
      "ctxkit.context.view",
      "ctxkit.context.compact",
      "ctxkit.context.view",
      "ctxkit.context.recover_overflow",
      "ctxkit.context.report_usage",
      "ctxkit.context.view",
    ]);
    expect(loop.spans.every((span) => span.kind === SpanKind.INTERNAL)).toBe(true);
    for (const span of loop.spans) {
      expect(span.attributes).toMatchObject({ "agent.name": "reader", "gen_ai.conversation.id": "session-7" });
    }
  });

  it("should give each view span the figures usage() reports for that view", () => {
    const views = [spanNamed("ctxkit.context.view", 0), spanNamed("ctxkit.context.view", 1), spanNamed("ctxkit.context.view", 2)];
    views.forEach((span, index) => {
      const usage = loop.usages[index]!;
      expect(span.attributes).toMatchObject({
        "ctxkit.operation.name": "view",
        "ctxkit.view.tokens": usage.tokens,
        "ctxkit.view.budget": 600,
        "ctxkit.view.overhead_tokens": 0,
        "ctxkit.view.message_count": usage.messageCount,
        "ctxkit.view.counter": "estimate",
      });
    });
    expect(loop.usages.slice(0, 3).map((usage) => usage.messageCount)).toEqual([5, 9, 4]);
  });

  it("should flag compaction with the convention's attribute, true only, and never false", () => {
    const [first, second, third] = [0, 1, 2].map((index) => spanNamed("ctxkit.context.view", index));
    expect(first!.attributes["ctxkit.view.compacted"]).toBe(false);
    expect(second!.attributes["ctxkit.view.compacted"]).toBe(false);
    expect(third!.attributes["ctxkit.view.compacted"]).toBe(true);
    expect(first!.attributes).not.toHaveProperty("gen_ai.conversation.compacted");
    expect(second!.attributes).not.toHaveProperty("gen_ai.conversation.compacted");
    expect(third!.attributes["gen_ai.conversation.compacted"]).toBe(true);
    expect(loop.spans.some((span) => span.attributes["gen_ai.conversation.compacted"] === false)).toBe(false);
  });

  it("should name the compaction's receipt and carry its figures", () => {
    const span = spanNamed("ctxkit.context.view", 2);
    const [post] = loop.postCompacts;
    expect(post!.receiptId).toEqual(expect.any(String));
    expect(span.attributes["ctxkit.compaction.receipt_id"]).toBe(post!.receiptId);
    expect(span.attributes["ctxkit.compaction.shared_prefix.messages"]).toBe(post!.sharedPrefix!.messages);
    expect(span.attributes["ctxkit.compaction.shared_prefix.tokens"]).toBe(post!.sharedPrefix!.tokens);
    expect(span.attributes["ctxkit.compaction.messages.summarized"]).toBeGreaterThan(0);
    expect(span.attributes["ctxkit.compaction.messages.kept"]).toBe(post!.fateCounts!.kept);
    expect(span.attributes["ctxkit.compaction.messages.dropped"]).toBe(post!.fateCounts!.dropped);
  });

  it("should put the repair of the dangling call on the request that made it, and on no other", () => {
    const repairs = loop.spans.map((span) => span.events.filter((event) => event.name === "ctxkit.repair"));
    expect(repairs.map((events) => events.length)).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
    expect(repairs[1]![0]!.attributes).toEqual({
      "ctxkit.repair.kind": "dangling_call",
      "ctxkit.repair.tool_call_ids": ["call_2"],
    });
  });

  it("should describe the compaction: reason, tokens before and after, the strategies that changed the view, and its events", () => {
    const span = spanNamed("ctxkit.context.view", 2);
    expect(span.attributes).toMatchObject({
      "ctxkit.compaction.reason": "threshold",
      "ctxkit.compaction.tokens_after": loop.usages[2]!.tokens,
      "ctxkit.compaction.strategies": ["summary"],
    });
    expect(span.attributes["ctxkit.compaction.tokens_before"]).toBeGreaterThan(600);
    // The figures the manager reported for this compaction: the target it aimed for, and why it ended above it, if it did.
    const [post] = loop.postCompacts;
    expect(post!.target).toBeGreaterThan(0);
    expect(span.attributes["ctxkit.compaction.target"]).toBe(post!.target);
    expect(span.attributes["ctxkit.compaction.short_of_target"]).toBe(post!.shortOfTarget?.reason);
    expect(span.events.map((event) => event.name)).toEqual(["ctxkit.strategy_error", "ctxkit.include"]);
    expect(span.events[0]!.attributes).toEqual({
      "ctxkit.strategy.name": "flaky",
      "ctxkit.strategy.consecutive_failures": 1,
      "error.type": "Error",
      "exception.message": "flaky failed",
    });
    expect(span.events[1]!.attributes).toMatchObject({
      "ctxkit.include.source": "summary",
      "ctxkit.include.message_count": 1,
      "ctxkit.include.covered_from": 1,
    });
    expect(span.attributes["ctxkit.view.tokens"]).toBeLessThan(span.attributes["ctxkit.compaction.tokens_before"] as number);
  });

  it("should measure the stable prefix against the previous view", () => {
    const [first, second, third] = [0, 1, 2].map((index) => spanNamed("ctxkit.context.view", index));
    expect(first!.attributes).not.toHaveProperty("ctxkit.view.cache_stable_share");
    // The second view appends to the first: its first five messages, all of the first view's tokens, are unchanged.
    expect(second!.attributes["ctxkit.view.stable_prefix.messages"]).toBe(5);
    expect(second!.attributes["ctxkit.view.cache_stable_share"]).toBeCloseTo(loop.usages[0]!.tokens / loop.usages[1]!.tokens, 10);
    // The summary comes right after the system message: only that message is still a cache hit.
    expect(third!.attributes["ctxkit.view.stable_prefix.messages"]).toBe(1);
    expect(third!.attributes["ctxkit.view.cache_stable_share"]).toBeGreaterThan(0);
    expect(third!.attributes["ctxkit.view.cache_stable_share"]).toBeLessThan(0.5);
  });

  it("should trace compact() and recoverOverflow() with their own figures", () => {
    // The view is a summary and the latest turn: a forced compaction runs its strategies and finds nothing to change.
    const compact = spanNamed("ctxkit.context.compact");
    expect(compact.attributes).toMatchObject({
      "ctxkit.operation.name": "compact",
      "ctxkit.compaction.reason": "forced",
      "ctxkit.compaction.compacted": false,
      "ctxkit.compaction.tokens_before": loop.usages[2]!.tokens,
      "ctxkit.compaction.tokens_after": loop.usages[2]!.tokens,
      "ctxkit.compaction.strategies": [],
      "ctxkit.view.budget": 600,
    });
    const recover = spanNamed("ctxkit.context.recover_overflow");
    expect(recover.attributes).toMatchObject({
      "ctxkit.operation.name": "recover_overflow",
      "ctxkit.compaction.reason": "overflow",
      "ctxkit.view.tokens": loop.usages[4]!.tokens,
      "ctxkit.view.budget": loop.usages[4]!.budget,
      "gen_ai.conversation.compacted": true,
    });
    // Recovery shrinks the budget below the one that overflowed.
    expect(loop.usages[4]!.budget).toBeLessThan(600);
  });

  it("should record the provider's usage on a span of its own", () => {
    expect(spanNamed("ctxkit.context.report_usage").attributes).toMatchObject({
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 9,
    });
  });

  it("should end a refused request as an error carrying the budget and what the minimal view needs", () => {
    expect(loop.refusal).toBeInstanceOf(ContextBudgetError);
    const refusal = loop.refusal as ContextBudgetError;
    const span = spanNamed("ctxkit.context.view", 4);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: refusal.message });
    expect(span.attributes).toMatchObject({
      "error.type": "CONTEXT_BUDGET",
      "ctxkit.refusal.budget": refusal.budget,
      "ctxkit.refusal.required": refusal.required,
    });
    expect(refusal.required).toBeGreaterThan(refusal.budget);
    // flaky has failed three times in a row by now: the circuit breaker skips it, so no strategy error here.
    expect(span.events.map((event) => event.name)).toEqual(["exception"]);
    expect(span.attributes).not.toHaveProperty("ctxkit.view.tokens");
    expect(loop.spans.filter((other) => other.status.code === SpanStatusCode.ERROR)).toEqual([span]);
  });
});

describe("the metrics of an agent loop", () => {
  it("should record the tokens of every view sent, by operation", () => {
    const [first, second, third, fourth, recovered] = loop.usages;
    expect(histogramsBy(loop.metrics.get("ctxkit.view.tokens"), "ctxkit.operation.name")).toEqual({
      view: { count: 4, sum: first!.tokens + second!.tokens + third!.tokens + fourth!.tokens },
      recover_overflow: { count: 1, sum: recovered!.tokens },
    });
  });

  it("should count compactions by reason and time them in seconds", () => {
    expect(sumsBy(loop.metrics.get("ctxkit.compactions"), "ctxkit.compaction.reason")).toEqual({
      threshold: 1,
      forced: 1,
      overflow: 1,
    });
    const durations = histogramsBy(loop.metrics.get("ctxkit.compaction.duration"), "ctxkit.compaction.reason");
    expect(durations).toEqual({
      threshold: { count: 1, sum: loop.postCompacts[0]!.durationMs / 1_000 },
      forced: { count: 1, sum: loop.postCompacts[1]!.durationMs / 1_000 },
      overflow: { count: 1, sum: loop.postCompacts[2]!.durationMs / 1_000 },
    });
    expect(loop.metrics.get("ctxkit.compaction.duration")!.descriptor.unit).toBe("s");
  });

  it("should count the refusal, the repair and every strategy error", () => {
    expect(sumsBy(loop.metrics.get("ctxkit.refusals"), "error.type")).toEqual({ CONTEXT_BUDGET: 1 });
    expect(sumsBy(loop.metrics.get("ctxkit.repairs"), "ctxkit.repair.kind")).toEqual({ dangling_call: 1 });
    expect(sumsBy(loop.metrics.get("ctxkit.strategy_errors"), "ctxkit.strategy.name")).toEqual({
      flaky: loop.strategyErrors,
    });
    // flaky fails in the threshold compaction, the forced one and the overflow recovery; then its circuit opens.
    expect(loop.strategyErrors).toBe(3);
    const failures = loop.spans.flatMap((span) =>
      span.events
        .filter((event) => event.name === "ctxkit.strategy_error")
        .map((event) => [span.name, event.attributes!["ctxkit.strategy.consecutive_failures"]]),
    );
    expect(failures).toEqual([
      ["ctxkit.context.view", 1],
      ["ctxkit.context.compact", 2],
      ["ctxkit.context.recover_overflow", 3],
    ]);
  });

  it("should record the cache-stable share of every view after the first", () => {
    const shares = histogramsBy(loop.metrics.get("ctxkit.view.cache_stable_share"), "ctxkit.operation.name");
    expect(shares["view"]!.count).toBe(3);
    expect(shares["recover_overflow"]!.count).toBe(1);
  });

  it("should put the caller's attributes on every point, and no session id", () => {
    for (const metric of loop.metrics.values()) {
      for (const attributes of pointAttributes(metric)) {
        expect(attributes["agent.name"]).toBe("reader");
        expect(attributes).not.toHaveProperty("gen_ai.conversation.id");
      }
    }
  });
});
