import fc from "fast-check";
import { checkToolPairs, hasToolCalls } from "../kit.js";
import { describe, expect, it } from "vitest";
import { historyArbitrary } from "../../test/arbitraries.js";
import { createMemoryStateStore } from "../pipeline/memory-state-store.js";
import { estimateCounter } from "../tokens/estimate-counter.js";
import { findToolUnits } from "../units/find-tool-units.js";
import { PinSet } from "./pin-set.js";
import { SessionHistory } from "./session-history.js";
import { ViewTail } from "./view-tail.js";
import { assistantMessage, sampleTurn, toolCallMessage, toolResultMessage, userMessage } from "../testing/index.js";
import { addAll, managerWithEvents, memoryContext, spyCounter } from "../../test/memory-context.js";

describe("the view's tail", () => {
  describe("token accounting", () => {
    it("should count each message once, however many views are built", async () => {
      const counter = spyCounter();
      const manager = await memoryContext({ tokenizer: counter, maxTokens: 1_000_000 });
      const given = Array.from({ length: 30 }, (_, index) => sampleTurn(index, 100)).flat();
      for (const message of given) {
        await manager.addMessage(message);
        // Requests come before model calls: after user, tool and answer messages, not mid-call.
        if (!hasToolCalls(message)) await manager.getMessagesForRequest();
      }
      expect(counter.calls).toHaveLength(given.length);
    });
  });

  describe("the open unit", () => {
    it("should settle up to the trailing tool unit still waiting for results, as the units of the whole history place it", () => {
      // The trailing unit is found from the last message that is not a tool result, not over the whole history.
      fc.assert(
        fc.property(historyArbitrary({ broken: true }), fc.boolean(), (messages, dangling) => {
          const given = dangling ? [...messages, toolCallMessage("still-running")] : messages;
          const history = new SessionHistory(estimateCounter());
          history.reset(given);
          const tail = new ViewTail(history, estimateCounter(), new PinSet(createMemoryStateStore()));
          const last = findToolUnits(given).at(-1);
          const opener = last === undefined ? undefined : given[last.start]!;
          const isOpen =
            last?.kind === "tool" && opener !== undefined && hasToolCalls(opener) && last.end - last.start - 1 < opener.tool_calls.length;
          expect(tail.refresh().openUnitStart).toBe(isOpen ? last.start : given.length);
        }),
        { seed: 20261128, numRuns: 300 },
      );
    });
  });

  describe("repairs", () => {
    it("should answer a dangling call with a synthetic result and announce it once", async () => {
      const { manager, count } = await managerWithEvents();
      await addAll(manager, [userMessage("go"), toolCallMessage("lost"), userMessage("still there?")]);
      const first = await manager.getMessagesForRequest();
      await manager.getMessagesForRequest();
      expect(checkToolPairs(first)).toEqual([]);
      expect(first[2]).toMatchObject({ role: "tool", tool_call_id: "lost", metadata: { ctxkit: { source: "repair" } } });
      expect(count("context:repair")).toBe(1);
      expect(await manager.getMessages()).toHaveLength(3);
    });

    it("should replace the synthetic result once the real result arrives", async () => {
      const { manager } = await managerWithEvents();
      await addAll(manager, [userMessage("go"), toolCallMessage("c1")]);
      await manager.getMessagesForRequest();
      await manager.addMessage(toolResultMessage("c1", "real"));
      expect(await manager.getMessagesForRequest()).toEqual([userMessage("go"), toolCallMessage("c1"), toolResultMessage("c1", "real")]);
    });

    it("should leave an orphan result out of the view", async () => {
      const { manager, events } = await managerWithEvents();
      await addAll(manager, [userMessage("go"), toolResultMessage("ghost", "?"), assistantMessage("hm")]);
      expect(await manager.getMessagesForRequest()).toEqual([userMessage("go"), assistantMessage("hm")]);
      expect(events.find((recorded) => recorded.event === "context:repair")?.payload).toEqual({
        kind: "orphan_result",
        toolCallIds: ["ghost"],
      });
    });
  });
});
