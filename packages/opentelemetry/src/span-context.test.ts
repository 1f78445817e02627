// With a context manager registered, a view span sits under the agent's span, and spans started while the manager works sit under it.
import { createContextManager } from "@ctxkit/core";
import type { Strategy } from "@ctxkit/core/kit";
import { assistantMessage, userMessage } from "@ctxkit/core/testing";
import { MemoryMessageStore } from "@ctxkit/context-simple";
import { context } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AsyncContextManager } from "../test/__fixtures__/async-context-manager.js";
import { createInMemoryTelemetry } from "../test/__fixtures__/in-memory-telemetry.js";
import { instrumentContextManager } from "./index.js";

// The test registers a global context manager, as an application's SDK set-up would; the package itself never does.
beforeAll(() => void context.setGlobalContextManager(new AsyncContextManager()));
afterAll(() => context.disable());

describe("span context", () => {
  it("should nest the view span under the caller's span, and a strategy's own span under the view span", async () => {
    const telemetry = createInMemoryTelemetry();
    const tracer = telemetry.tracerProvider.getTracer("test");
    // A strategy that calls a model, as a summarizer does: its span should belong to the request that ran it.
    const summarizer: Strategy = {
      name: "calls-a-model",
      async apply(view) {
        tracer.startSpan("model.call").end();
        return { view, applied: false };
      },
    };
    const manager = await createContextManager({
      store: new MemoryMessageStore(),
      tokenizer: "estimate",
      strategies: [summarizer, "truncate"],
    });
    const wrapped = instrumentContextManager(manager, { tracer, meter: telemetry.meterProvider.getMeter("test") });
    for (let turn = 0; turn < 6; turn += 1) {
      await wrapped.addMessage(userMessage(`question ${turn} `.repeat(20)));
      await wrapped.addMessage(assistantMessage(`answer ${turn} `.repeat(20)));
    }
    await tracer.startActiveSpan("agent.turn", async (turn) => {
      await wrapped.getMessagesForRequest({ tokenBudget: 300 });
      turn.end();
    });
    const spans = telemetry.spans();
    const byName = (name: string) => spans.find((span) => span.name === name)!;
    expect(spans.map((span) => span.name).sort()).toEqual(["agent.turn", "ctxkit.context.view", "model.call"]);
    expect(byName("ctxkit.context.view").parentSpanContext?.spanId).toBe(byName("agent.turn").spanContext().spanId);
    expect(byName("model.call").parentSpanContext?.spanId).toBe(byName("ctxkit.context.view").spanContext().spanId);
    await telemetry.shutdown();
  });
});
