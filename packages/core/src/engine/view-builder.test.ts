import { describe, expect, it } from "vitest";
import { ContextBudgetError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { createMemoryStateStore } from "../pipeline/memory-state-store.js";
import type { Strategy } from "../pipeline/strategy.js";
import { truncate } from "../strategies/truncate.js";
import { sampleTurn, systemMessage, toolCallMessage, userMessage } from "../testing/message-builders.js";
import { estimateCounter } from "../tokens/estimate-counter.js";
import { contextConfigSchema } from "./context-config.js";
import { EventSink } from "./event-sink.js";
import { PinSet } from "./pin-set.js";
import { SessionHistory } from "./session-history.js";
import { ViewBuilder } from "./view-builder.js";

function builderOver(messages: Message[], strategies: Strategy[] = [truncate()]) {
  const history = new SessionHistory(estimateCounter());
  history.reset(messages);
  const events = new EventSink();
  const names: string[] = [];
  events.add((event) => void names.push(event));
  const config = contextConfigSchema.parse({ tokenizer: "estimate" });
  const state = createMemoryStateStore();
  const builder = new ViewBuilder({
    config,
    counter: estimateCounter(),
    history,
    pins: new PinSet(state),
    events,
    strategies,
    stateStoreFor: () => state,
  });
  return { builder, history, names };
}

const longHistory = [systemMessage("be brief"), ...Array.from({ length: 8 }, (_, turn) => sampleTurn(turn, 800)).flat()];

describe("ViewBuilder", () => {
  it("should return the history as it is while it fits, compacting nothing", async () => {
    const { builder, names } = builderOver([systemMessage("s"), userMessage("hi")]);
    const built = await builder.build({ tokenBudget: 10_000 }, { kind: "auto" });
    expect(built.view).toEqual([systemMessage("s"), userMessage("hi")]);
    expect(built.steps).toEqual([]);
    expect(names).toEqual([]);
    expect(builder.planner.usage()).toMatchObject({ messageCount: 2, compacted: false });
  });

  it("should compact a view over the threshold and announce it", async () => {
    const { builder, names } = builderOver(longHistory);
    const built = await builder.build({ tokenBudget: 1_500 }, { kind: "auto" });
    expect(built.tokensBefore).toBeGreaterThan(1_500);
    expect(builder.tail.view.tokens).toBeLessThanOrEqual(1_500);
    expect(names).toEqual(["context:pre_compact", "context:post_compact"]);
  });

  it("should plan a probe without settling anything", async () => {
    const { builder } = builderOver(longHistory);
    const plan = await builder.plan({ tokenBudget: 1_500 }, { kind: "probe" });
    expect(plan.reason).toBe("threshold");
    expect(builder.planner.usage()).toBeUndefined();
    expect(builder.tail.view.settledUntil).toBe(0);
  });

  it("should leave a trailing tool call still waiting for its result unsettled, and answer it with a repair", async () => {
    const { builder, history, names } = builderOver([userMessage("go"), toolCallMessage("call-1")]);
    const built = await builder.build({ tokenBudget: 10_000 }, { kind: "auto" });
    expect(built.view.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(builder.tail.view.settledUntil).toBe(1);
    expect(names).toEqual(["context:repair"]);
    expect(history.length).toBe(2);
  });

  it("should settle the view and rethrow when even the last resorts cannot fit the budget", async () => {
    const { builder } = builderOver([systemMessage("x".repeat(4_000)), userMessage("hi")]);
    await expect(builder.build({ tokenBudget: 200 }, { kind: "auto" })).rejects.toBeInstanceOf(ContextBudgetError);
    expect(builder.tail.view.settledUntil).toBe(2);
  });
});
