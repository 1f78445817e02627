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
    it("should keep only the units holding the last N messages, plus instructions", async () => {
      const result = await slidingWindow({ windowSize: 3 }).apply(createTestView(conversation), createTestContext());
      expect(historyIndices(result.view)).toEqual([0, 7, 8, 9]);
      expect(result.applied).toBe(true);
    });

    it("should keep a tool unit whole when the window starts inside it", async () => {
      const result = await slidingWindow({ windowSize: 5 }).apply(createTestView(conversation), createTestContext());
      // The window starts at the result of "b" (index 6); its unit begins at the call (index 4).
      expect(historyIndices(result.view)).toEqual([0, 4, 5, 6, 7, 8, 9]);
    });

    it("should default to 40 messages", async () => {
      const long: Message[] = Array.from({ length: 50 }, (_, index) =>
        index % 2 === 0 ? userMessage(`q${index}`) : assistantMessage(`a${index}`),
      );
      const result = await slidingWindow().apply(createTestView(long), createTestContext());
      expect(result.view.entries).toHaveLength(40);
      expect(historyIndices(result.view)[0]).toBe(10);
    });

    it("should drop every unit outside the window even when the target is already reached", async () => {
      const view = createTestView(conversation);
      const result = await slidingWindow({ windowSize: 3 }).apply(view, createTestContext({ target: view.tokens }));
      expect(historyIndices(result.view)).toEqual([0, 7, 8, 9]);
    });

    it("should reject a window that is not a positive integer", () => {
      expect(() => slidingWindow({ windowSize: 0 })).toThrow(ContextConfigError);
      expect(() => slidingWindow({ windowSize: 2.5 })).toThrow(ContextConfigError);
    });
  });

  describe("protections", () => {
    it("should never drop a pinned message or the first protectFirst messages", async () => {
      const messages = [...conversation];
      messages[3] = pinnedMessage(userMessage("two"));
      const result = await slidingWindow({ windowSize: 2 }).apply(createTestView(messages), createTestContext({ protectFirst: 2 }));
      expect(historyIndices(result.view)).toEqual([0, 1, 3, 8, 9]);
    });

    it("should keep the current turn even when it is longer than the window", async () => {
      const messages = [
        userMessage("old"),
        userMessage("now"),
        toolCallMessage("x"),
        toolResultMessage("x", "out"),
        assistantMessage("done"),
      ];
      const result = await slidingWindow({ windowSize: 1 }).apply(createTestView(messages), createTestContext());
      expect(historyIndices(result.view)).toEqual([1, 2, 3, 4]);
    });

    it("should return the same draft, not applied, when everything fits the window", async () => {
      const view = createTestView(conversation);
      const result = await slidingWindow({ windowSize: 100 }).apply(view, createTestContext());
      expect(result).toEqual({ view, applied: false });
    });
  });
});
