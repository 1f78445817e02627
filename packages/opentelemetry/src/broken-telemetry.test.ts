// Telemetry never breaks the agent: a tracer, meter, span or exporter that throws changes no answer.
import { ContextBudgetError, createContextManager, type ContextManager, type Message } from "@ctxkit/core";
import { assistantMessage, systemMessage, toolCallMessage, toolResultMessage, userMessage } from "@ctxkit/core/testing";
import { MemoryMessageStore } from "@ctxkit/context-simple";
import type { Meter, Tracer } from "@opentelemetry/api";
import { BasicTracerProvider, type SpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { instrumentContextManager, type InstrumentationOptions } from "./index.js";

/** An object every method of which throws: a broken SDK, whatever it is asked. */
function throwingEverywhere<T extends object>(what: string): T {
  return new Proxy({} as T, {
    get: () => () => {
      throw new Error(`${what} is broken`);
    },
  });
}

/** A tracer and a meter that hand out spans and instruments that throw on every call. */
const brokenInside = {
  tracer: {
    startSpan: () => throwingEverywhere("span"),
    startActiveSpan: () => throwingEverywhere("span"),
  } as unknown as Tracer,
  meter: new Proxy({} as Meter, { get: () => () => throwingEverywhere("instrument") }),
};

const throwingExporter: SpanExporter = {
  export() {
    throw new Error("the exporter is broken");
  },
  shutdown: () => Promise.resolve(),
};

/** The same short loop on a fresh manager: a repair, a compaction, then a refusal. What the caller sees. */
async function runLoop(wrap: (manager: ContextManager) => ContextManager): Promise<{ views: Message[][]; refusal: unknown }> {
  const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
  const context = wrap(manager);
  const views: Message[][] = [];
  const budget = { tokenBudget: 400 };
  await context.addMessage(systemMessage("Be terse."));
  await context.addMessage(userMessage("Read a.txt"));
  await context.addMessage(toolCallMessage("call_1"));
  await context.addMessage(userMessage("Still there?"));
  views.push(await context.getMessagesForRequest(budget));
  await context.addMessage(toolCallMessage("call_2"));
  await context.addMessage(toolResultMessage("call_2", "beta ".repeat(400)));
  await context.addMessage(assistantMessage("It says beta."));
  await context.addMessage(userMessage("Thanks."));
  views.push(await context.getMessagesForRequest(budget));
  await context.addMessage(userMessage("gamma ".repeat(600)));
  const refusal = await context.getMessagesForRequest(budget).catch((error: unknown) => error);
  return { views, refusal };
}

describe("broken telemetry", () => {
  const bare = () => runLoop((manager) => manager);

  const cases: [string, () => InstrumentationOptions][] = [
    [
      "a tracer and a meter that throw on every call",
      () => ({ tracer: throwingEverywhere<Tracer>("tracer"), meter: throwingEverywhere<Meter>("meter") }),
    ],
    ["spans and instruments that throw on every call", () => brokenInside],
    [
      "a span exporter that throws",
      () => ({
        tracer: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(throwingExporter)] }).getTracer("broken"),
      }),
    ],
    ["hooks that refuse a handler", () => ({ hooks: throwingEverywhere("hooks") })],
  ];

  for (const [name, options] of cases) {
    it(`should answer every request as the bare manager does, with ${name}`, async () => {
      const expected = await bare();
      const instrumented = await runLoop((manager) => instrumentContextManager(manager, options()));
      expect(expected.views[0]!.length).toBe(5); // the dangling call was repaired
      expect(expected.views[1]!.length).toBeLessThan(9); // and the view compacted
      expect(instrumented.views).toEqual(expected.views);
      expect(expected.refusal).toBeInstanceOf(ContextBudgetError);
      expect(instrumented.refusal).toBeInstanceOf(ContextBudgetError);
      expect((instrumented.refusal as ContextBudgetError).message).toBe((expected.refusal as ContextBudgetError).message);
    });
  }
});
