import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary, messageTextArbitrary } from "../../test/arbitraries.js";
import type { Message } from "../messages/message.js";
import { parseMessage } from "../messages/parse-message.js";
import { checkToolPairs } from "./check-tool-pairs.js";
import type { ToolPairViolationKind } from "./tool-unit.js";
import { answer, calling, result, user } from "../../test/tool-pair-messages.js";

describe("checkToolPairs", () => {
  describe("valid sequences", () => {
    it("should find nothing in an empty history", () => {
      expect(checkToolPairs([])).toEqual([]);
    });

    it("should find nothing in a history without tools", () => {
      expect(checkToolPairs([{ role: "system", content: "be brief" }, user, answer])).toEqual([]);
    });

    it("should accept parallel results in a different order than the calls", () => {
      expect(checkToolPairs([user, calling("a", "b", "c"), result("c"), result("a"), result("b"), answer])).toEqual([]);
    });

    it("should accept an id reused in a later turn", () => {
      const history = [user, calling("call_1"), result("call_1"), answer, user, calling("call_1"), result("call_1"), answer];
      expect(checkToolPairs(history)).toEqual([]);
    });

    it("should accept back-to-back units", () => {
      expect(checkToolPairs([user, calling("a"), result("a"), calling("b"), result("b")])).toEqual([]);
    });
  });

  describe("orphan_result", () => {
    it("should report a result that no call ever made", () => {
      expect(checkToolPairs([user, result("ghost"), answer])).toEqual([{ kind: "orphan_result", index: 1, toolCallId: "ghost" }]);
    });

    it("should report a result inside a unit that answers none of its calls", () => {
      expect(checkToolPairs([calling("a"), result("a"), result("ghost")])).toEqual([
        { kind: "orphan_result", index: 2, toolCallId: "ghost" },
      ]);
    });
  });

  describe("dangling_call", () => {
    it("should report a trailing unanswered call at the assistant message", () => {
      expect(checkToolPairs([user, calling("a")])).toEqual([{ kind: "dangling_call", index: 1, toolCallId: "a" }]);
    });

    it("should report each unanswered call of a parallel group", () => {
      expect(checkToolPairs([calling("a", "b", "c"), result("b"), answer])).toEqual([
        { kind: "dangling_call", index: 0, toolCallId: "a" },
        { kind: "dangling_call", index: 0, toolCallId: "c" },
      ]);
    });

    it("should report a call whose result comes only after the next unit", () => {
      expect(checkToolPairs([calling("a"), calling("b"), result("b"), result("a")])).toEqual([
        { kind: "dangling_call", index: 0, toolCallId: "a" },
        { kind: "result_not_adjacent", index: 3, toolCallId: "a" },
      ]);
    });
  });

  describe("result_not_adjacent", () => {
    it("should report a result separated from its call by a user message, and the call as dangling", () => {
      expect(checkToolPairs([calling("a"), user, result("a")])).toEqual([
        { kind: "dangling_call", index: 0, toolCallId: "a" },
        { kind: "result_not_adjacent", index: 2, toolCallId: "a" },
      ]);
    });

    it("should report a result repeated after a later turn", () => {
      expect(checkToolPairs([calling("a"), result("a"), user, result("a")])).toEqual([
        { kind: "result_not_adjacent", index: 3, toolCallId: "a" },
      ]);
    });
  });

  describe("duplicate_call_id", () => {
    it("should report an id used twice in one assistant message", () => {
      expect(checkToolPairs([calling("a", "a"), result("a")])).toEqual([{ kind: "duplicate_call_id", index: 0, toolCallId: "a" }]);
    });
  });

  describe("duplicate_result", () => {
    it("should report a call answered twice", () => {
      expect(checkToolPairs([calling("a", "b"), result("a"), result("b"), result("a")])).toEqual([
        { kind: "duplicate_result", index: 3, toolCallId: "a" },
      ]);
    });
  });

  describe("several violations", () => {
    it("should report every violation, in message order", () => {
      const history = [result("ghost"), calling("a", "a", "b"), result("a"), result("a"), user, result("b")];
      expect(checkToolPairs(history)).toEqual([
        { kind: "orphan_result", index: 0, toolCallId: "ghost" },
        { kind: "duplicate_call_id", index: 1, toolCallId: "a" },
        { kind: "dangling_call", index: 1, toolCallId: "b" },
        { kind: "duplicate_result", index: 3, toolCallId: "a" },
        { kind: "result_not_adjacent", index: 5, toolCallId: "b" },
      ]);
    });
  });

  // These also check the shared arbitraries that other core tests rely on.
  describe("generated histories", () => {
    it("should find nothing in any valid history", () => {
      fc.assert(fc.property(historyArbitrary(), (history) => checkToolPairs(history).length === 0));
    });

    it("should only generate messages that parseMessage accepts", () => {
      fc.assert(
        fc.property(historyArbitrary({ broken: true }), (history) => {
          history.forEach((message, index) => parseMessage(message, index));
        }),
      );
    });

    it("should generate every broken kind that a valid message sequence can have", () => {
      const kinds = new Set<ToolPairViolationKind>();
      for (const history of fc.sample(historyArbitrary({ broken: true }), { numRuns: 300, seed: 42 })) {
        for (const violation of checkToolPairs(history)) kinds.add(violation.kind);
      }
      expect([...kinds].sort()).toEqual(["dangling_call", "duplicate_result", "orphan_result", "result_not_adjacent"]);
    });

    it("should generate outputs of 20 KB or more only when asked", () => {
      const longestOutput = (histories: Message[][]): number =>
        Math.max(0, ...histories.flat().map((message) => (message.role === "tool" ? JSON.stringify(message.content).length : 0)));
      expect(longestOutput(fc.sample(historyArbitrary({ hugeOutputs: true }), { numRuns: 100, seed: 7 }))).toBeGreaterThanOrEqual(20_000);
      expect(longestOutput(fc.sample(historyArbitrary(), { numRuns: 100, seed: 7 }))).toBeLessThan(20_000);
    });

    it("should generate text with CJK, surrogate pairs, combining marks and newlines", () => {
      const text = fc.sample(messageTextArbitrary(), { numRuns: 200, seed: 1 }).join("");
      expect(text).toMatch(/\p{Script=Han}/u);
      expect(text).toMatch(/[\uD800-\uDBFF][\uDC00-\uDFFF]/);
      expect(text).toMatch(/\p{Mark}/u);
      expect(text).toContain("\n");
    });

    it("should reuse a tool-call id in a later turn of some valid histories", () => {
      const reusesAnId = (history: Message[]): boolean => {
        const ids = history.flatMap((message) => (message.role === "assistant" ? (message.tool_calls ?? []).map((call) => call.id) : []));
        return new Set(ids).size < ids.length;
      };
      expect(fc.sample(historyArbitrary(), { numRuns: 100, seed: 3 }).some(reusesAnId)).toBe(true);
    });
  });
});
