import { describe, expect, it } from "vitest";
import {
  assistantMessage,
  createTestContext,
  createTestView,
  historyIndices,
  pinnedMessage,
  systemMessage,
  toolCallMessage,
  toolResultMessage,
  userMessage,
} from "../../test/strategy-context.js";
import { ContextConfigError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { slidingWindow } from "./sliding-window.js";

const conversation: Message[] = [
  systemMessage("rules"),
  userMessage("one"),
  assistantMessage("answer one"),
  userMessage("two"),
  toolCallMessage("a", "b"),
  toolResultMessage("a", "output a"),
  toolResultMessage("b", "output b"),
  assistantMessage("answer two"),
  userMessage("three"),
  assistantMessage("answer three"),
];

describe("slidingWindow", () => {
  describe("windowSize", () => {
    it("should keep at most N messages besides the protected ones, newest first", async () => {
      const result = await slidingWindow({ windowSize: 5, step: 0 }).apply(createTestView(conversation), createTestContext());
      // The system message and the current turn (8, 9) are protected and not counted.
      expect(historyIndices(result.view)).toEqual([0, 3, 4, 5, 6, 7, 8, 9]);
      expect(result.applied).toBe(true);
    });

    it("should drop a tool unit whole when it does not fit the window whole", async () => {
      const result = await slidingWindow({ windowSize: 3, step: 0 }).apply(createTestView(conversation), createTestContext());
      // The unit 4–6 would take the window past 3 messages: it goes, and everything older with it.
      expect(historyIndices(result.view)).toEqual([0, 7, 8, 9]);
    });

    it("should move the window in steps, so the view grows back byte-stable until it passes the window again", async () => {
      const strategy = slidingWindow({ windowSize: 4, step: 2 });
      const view = createTestView(conversation);
      expect(strategy.exceedsLimit!(view, { protectFirst: 0 })).toBe(true);
      const result = await strategy.apply(view, createTestContext());
      // Down to windowSize - step = 2 counted messages: the unit 4–6 does not fit, so only 7 stays.
      expect(historyIndices(result.view)).toEqual([0, 7, 8, 9]);
      expect(strategy.exceedsLimit!(result.view, { protectFirst: 0 })).toBe(false);
    });

    it("should default to 40 messages", async () => {
      const long: Message[] = Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0 ? userMessage(`q${index}`) : assistantMessage(`a${index}`),
      );
      const result = await slidingWindow({ step: 0 }).apply(createTestView(long), createTestContext());
      // 40 counted messages plus the current turn (the latest user message and its answer).
      expect(result.view.entries).toHaveLength(42);
      expect(historyIndices(result.view)[0]).toBe(8);
    });

    it("should drop every unit outside the window even when the target is already reached", async () => {
      const view = createTestView(conversation);
      const result = await slidingWindow({ windowSize: 3, step: 0 }).apply(view, createTestContext({ target: view.tokens }));
      expect(historyIndices(result.view)).toEqual([0, 7, 8, 9]);
    });

    it("should reject a window that is not a positive integer", () => {
      expect(() => slidingWindow({ windowSize: 0 })).toThrow(ContextConfigError);
      expect(() => slidingWindow({ windowSize: 2.5 })).toThrow(ContextConfigError);
      expect(() => slidingWindow({ windowSize: 4, step: 4 })).toThrow(/step/);
      expect(() => slidingWindow({ windowSize: 4, step: -1 })).toThrow(/step/);
    });
  });

  describe("protections", () => {
    it("should never drop a pinned message or the first protectFirst messages", async () => {
      const messages = [...conversation];
      messages[3] = pinnedMessage(userMessage("two"));
      const result = await slidingWindow({ windowSize: 2, step: 0 }).apply(
        createTestView(messages),
        createTestContext({ protectFirst: 2 }),
      );
      expect(historyIndices(result.view)).toEqual([0, 1, 3, 7, 8, 9]);
    });

    it("should keep the current turn even when it is longer than the window", async () => {
      const messages = [
        userMessage("old"),
        assistantMessage("old answer"),
        userMessage("now"),
        toolCallMessage("x"),
        toolResultMessage("x", "out"),
        assistantMessage("done"),
      ];
      const result = await slidingWindow({ windowSize: 1, step: 0 }).apply(createTestView(messages), createTestContext());
      expect(historyIndices(result.view)).toEqual([1, 2, 3, 4, 5]);
    });

    it("should return the same draft, not applied, when everything fits the window", async () => {
      const view = createTestView(conversation);
      const result = await slidingWindow({ windowSize: 100 }).apply(view, createTestContext());
      expect(result).toEqual({ view, applied: false });
    });
  });
});
