import { describe, expect, it } from "vitest";
import type { StateChange } from "../store/message-store.js";
import { createTestView } from "../../test/strategy-context.js";
import { createMemoryStateStore } from "../pipeline/memory-state-store.js";
import type { Strategy, StrategyContext } from "../pipeline/strategy.js";
import { userMessage } from "../testing/message-builders.js";
import { estimateCounter } from "../tokens/estimate-counter.js";
import { StrategyStates } from "./strategy-states.js";

describe("StrategyStates", () => {
  it("should hand out the same store for a name, and keep names apart", async () => {
    const changes: StateChange[] = [];
    const states = new StrategyStates(async (change) => void changes.push(change));
    expect(states.storeFor("a")).toBe(states.storeFor("a"));
    await states.storeFor("a").set("key", 1);
    expect(states.storeFor("b").get("key")).toBeUndefined();
    expect(changes).toEqual([{ strategy: "a", key: "key", value: 1 }]);
  });

  it("should give a wrapped strategy its own state, whatever state the pipeline passes", async () => {
    const states = new StrategyStates(async () => {});
    const strategy: Strategy = {
      name: "remembers",
      idleAfterMs: 5,
      apply: async (view, context) => {
        await context.state.set("seen", true);
        return { view, applied: false };
      },
    };
    const wrapped = states.withOwnState(strategy);
    expect(wrapped.name).toBe("remembers");
    expect(wrapped.idleAfterMs).toBe(5);
    expect(wrapped.observe).toBeUndefined();
    const foreign = createMemoryStateStore();
    const context = { state: foreign, counter: estimateCounter() } as unknown as StrategyContext;
    await wrapped.apply(createTestView([userMessage("a")]), context);
    expect(foreign.get("seen")).toBeUndefined();
    expect(states.storeFor("remembers").get("seen")).toBe(true);
  });
});
