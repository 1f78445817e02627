import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assistantMessage,
  createTestContext,
  createTestView,
  historyIndices,
  systemMessage,
  toolResultMessage,
  userMessage,
} from "../../test/strategy-context.js";
import { ContextConfigError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { findToolUnits } from "../units/find-tool-units.js";
import { importance } from "./importance.js";

const call = (id: string, name: string): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name, arguments: "{}" } }],
});

const conversation: Message[] = [
  systemMessage("rules"), // 0
  userMessage("start the build"), // 1
  call("r1", "read_file"), // 2
  toolResultMessage("r1", "contents of a file"), // 3
  call("e1", "edit_file"), // 4
  toolResultMessage("e1", "ok"), // 5
  call("t1", "bash"), // 6
  toolResultMessage("t1", "Error: tests failed"), // 7
  userMessage("no, don't touch the config"), // 8
  assistantMessage("understood"), // 9
  userMessage("carry on"), // 10
];

describe("importance", () => {
  describe("scoring", () => {
    it("should drop the plain old units before edits, errors and corrections", async () => {
      const view = createTestView(conversation);
      // Room for everything but two of the cheapest units.
      const target = view.tokens - view.entries[1]!.tokens - view.entries[2]!.tokens - view.entries[3]!.tokens;
      const result = await importance().apply(view, createTestContext({ target }));
      expect(historyIndices(result.view)).toEqual([0, 4, 5, 6, 7, 8, 9, 10]);
      expect(result.applied).toBe(true);
    });

    it("should keep a user correction longer than newer plain units", async () => {
      const view = createTestView(conversation);
      const result = await importance({ weights: { toolError: 0, fileEdit: 0 } }).apply(
        view,
        createTestContext({ target: view.entries[0]!.tokens + view.entries[8]!.tokens + view.entries[10]!.tokens }),
      );
      // The answer after the correction is newer, but the correction outweighs it.
      expect(historyIndices(result.view)).toEqual([0, 8, 10]);
    });

    it("should drop by recency alone when every other weight is 0", async () => {
      const view = createTestView(conversation);
      const weights = { toolError: 0, userCorrection: 0, fileEdit: 0 };
      const result = await importance({ weights }).apply(view, createTestContext({ target: view.tokens - 1 }));
      expect(historyIndices(result.view)).toEqual([0, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it("should reject a negative weight", () => {
      expect(() => importance({ weights: { recency: -1 } })).toThrow(ContextConfigError);
    });
  });

  describe("invariants", () => {
    it("should never split a unit, never drop instructions or the current turn, and give the same result twice", async () => {
      const messageArbitrary = fc.oneof(
        fc.constantFrom(userMessage("hello"), userMessage("no, wrong file"), assistantMessage("sure"), systemMessage("rule")),
        fc
          .tuple(fc.constantFrom("read_file", "edit_file", "bash"), fc.constantFrom("ok", "Error: boom"))
          .map(([name, output]) => [call("x", name), toolResultMessage("x", output)]),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(messageArbitrary, { minLength: 1, maxLength: 30 }), fc.nat(400), async (parts, target) => {
          let counter = 0;
          const messages = parts.flat().map((message) => {
            if (message.role === "assistant" && message.tool_calls)
              return { ...message, tool_calls: message.tool_calls.map((c) => ({ ...c, id: `c${counter}` })) };
            if (message.role === "tool") return { ...message, tool_call_id: `c${counter++}` };
            return message;
          });
          const view = createTestView(messages);
          const first = await importance().apply(view, createTestContext({ target }));
          const second = await importance().apply(view, createTestContext({ target }));
          expect(historyIndices(second.view)).toEqual(historyIndices(first.view));
          const kept = new Set(historyIndices(first.view));
          for (const unit of findToolUnits(messages)) {
            const inUnit = Array.from({ length: unit.end - unit.start }, (_, offset) => kept.has(unit.start + offset));
            expect(inUnit.every((value) => value === inUnit[0])).toBe(true);
          }
          messages.forEach((message, index) => {
            if (message.role === "system" || index >= view.currentTurnStart) expect(kept.has(index)).toBe(true);
          });
        }),
      );
    });
  });
});
