import { estimateCounter, type Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { createStrategyContext } from "./create-strategy-context.js";

const history: Message[] = [{ role: "user", content: "hello" }];

describe("createStrategyContext", () => {
  it("should set the target at 60% of the budget and count with the exact counter by default", async () => {
    const context = createStrategyContext({ budget: 1_000, history });
    expect([context.budget, context.target, context.protectFirst, context.forced]).toEqual([1_000, 600, 0, undefined]);
    expect(context.countMessage(history[0]!)).toBe(4 + context.counter.count("hello"));
    await context.state.set("key", 1);
    expect(context.state.get("key")).toBe(1);
    expect(context.signal.aborted).toBe(false);
  });

  it("should take every option, and record the events the strategy emits", () => {
    const counter = estimateCounter();
    const signal = AbortSignal.abort();
    const context = createStrategyContext({ budget: 100, history, target: 10, counter, protectFirst: 2, signal, forced: true });
    expect([context.target, context.counter, context.protectFirst, context.signal, context.forced]).toEqual([10, counter, 2, signal, true]);
    context.emit("context:repair", { kind: "orphan_result", toolCallIds: ["call_1"] });
    expect(context.events).toEqual([{ event: "context:repair", payload: { kind: "orphan_result", toolCallIds: ["call_1"] } }]);
  });
});
