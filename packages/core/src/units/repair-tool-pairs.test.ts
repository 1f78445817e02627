import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary } from "../../test/arbitraries.js";
import type { Message } from "../messages/message.js";
import { parseMessages } from "../messages/parse-message.js";
import { checkToolPairs } from "./check-tool-pairs.js";
import { findToolUnits } from "./find-tool-units.js";
import { hasNothingToRepair, repairToolPairs } from "./repair-tool-pairs.js";
import { answer, calling, result, user } from "../../test/tool-pair-messages.js";

function expectMissingResult(message: Message | undefined, toolCallId: string): void {
  expect(message).toMatchObject({
    role: "tool",
    tool_call_id: toolCallId,
    metadata: { ctxkit: { source: "repair", kind: "dangling_call" } },
  });
  expect(message?.content).toMatch(/missing/);
  expect(Object.isFrozen(message)).toBe(true);
  expect(Object.isFrozen(message?.metadata?.ctxkit)).toBe(true);
}

describe("repairToolPairs", () => {
  describe("when nothing needs repair", () => {
    it("should return the same message objects in a new array, each sourced to itself", () => {
      const history = [user, calling("a", "b"), result("b"), result("a"), answer];
      const repaired = repairToolPairs(history);
      expect(repaired.messages).not.toBe(history);
      expect(repaired.messages.every((message, index) => message === history[index])).toBe(true);
      expect(repaired.messages).toHaveLength(history.length);
      expect(repaired.sources).toEqual([0, 1, 2, 3, 4]);
      expect(repaired.repairs).toEqual([]);
    });

    it("should keep an id reused in a later turn", () => {
      const history = [calling("call_1"), result("call_1"), user, calling("call_1"), result("call_1")];
      expect(repairToolPairs(history).repairs).toEqual([]);
    });
  });

  describe("dangling calls", () => {
    it("should answer a trailing unanswered call with a synthetic result", () => {
      const repaired = repairToolPairs([user, calling("a")]);
      expect(repaired.messages).toHaveLength(3);
      expectMissingResult(repaired.messages[2], "a");
      expect(repaired.sources).toEqual([0, 1, null]);
      expect(repaired.repairs).toEqual([{ kind: "dangling_call", toolCallIds: ["a"], index: 1 }]);
    });

    it("should put the synthetic results after the unit's existing results, in call order, with one repair", () => {
      const history = [calling("a", "b", "c"), result("b"), user];
      const repaired = repairToolPairs(history);
      expect(repaired.sources).toEqual([0, 1, null, null, 2]);
      expectMissingResult(repaired.messages[2], "a");
      expectMissingResult(repaired.messages[3], "c");
      expect(repaired.repairs).toEqual([{ kind: "dangling_call", toolCallIds: ["a", "c"], index: 0 }]);
    });
  });

  describe("results that answer no call of their unit", () => {
    it("should leave out an orphan result", () => {
      const repaired = repairToolPairs([user, result("ghost"), answer]);
      expect(repaired.sources).toEqual([0, 2]);
      expect(repaired.repairs).toEqual([{ kind: "orphan_result", toolCallIds: ["ghost"], index: 1 }]);
    });

    it("should answer the call and leave out its result when a user message stands between them", () => {
      const repaired = repairToolPairs([calling("a"), user, result("a")]);
      expect(repaired.sources).toEqual([0, null, 1]);
      expectMissingResult(repaired.messages[1], "a");
      expect(repaired.repairs).toEqual([
        { kind: "dangling_call", toolCallIds: ["a"], index: 0 },
        { kind: "orphan_result", toolCallIds: ["a"], index: 2 },
      ]);
    });

    it("should keep the first answer to a call and leave out the second", () => {
      const history = [calling("a"), result("a"), result("a")];
      const repaired = repairToolPairs(history);
      expect(repaired.messages).toEqual([history[0], history[1]]);
      expect(repaired.messages[1]).toBe(history[1]);
      expect(repaired.repairs).toEqual([{ kind: "orphan_result", toolCallIds: ["a"], index: 2 }]);
    });
  });

  describe("repairs", () => {
    it("should be listed in message order", () => {
      const repaired = repairToolPairs([calling("a", "b"), result("ghost"), result("b"), user]);
      expect(repaired.repairs).toEqual([
        { kind: "dangling_call", toolCallIds: ["a"], index: 0 },
        { kind: "orphan_result", toolCallIds: ["ghost"], index: 1 },
      ]);
    });
  });

  describe("an id repeated within one assistant message", () => {
    it("should keep the first call under the id in a frozen copy, and leave out the extra result", () => {
      const callMessage = calling("a", "b", "a");
      const history = [callMessage, result("a"), result("b"), result("a")];
      const repaired = repairToolPairs(history);
      const kept = repaired.messages[0];
      expect(kept).not.toBe(callMessage);
      expect(kept).toEqual({ ...callMessage, tool_calls: callMessage.tool_calls!.slice(0, 2) });
      expect(Object.isFrozen(kept)).toBe(true);
      expect(repaired.sources).toEqual([0, 1, 2]);
      expect(repaired.repairs).toEqual([{ kind: "orphan_result", toolCallIds: ["a"], index: 3 }]);
      expect(callMessage.tool_calls).toHaveLength(3);
    });
  });

  describe("input", () => {
    it("should neither mutate nor freeze the caller's messages", () => {
      const history = [calling("a", "a", "b"), result("ghost"), user, result("a")];
      const before = structuredClone(history);
      repairToolPairs(history);
      expect(history).toEqual(before);
      expect(history.some((message) => Object.isFrozen(message))).toBe(false);
    });

    it("should accept frozen stored messages", () => {
      const history = parseMessages([calling("a"), result("ghost")]);
      expect(checkToolPairs(repairToolPairs(history).messages)).toEqual([]);
    });
  });

  describe("properties", () => {
    it("should always produce a sequence that checkToolPairs accepts", () => {
      fc.assert(
        fc.property(historyArbitrary({ broken: true }), (history) => {
          expect(checkToolPairs(repairToolPairs(history).messages)).toEqual([]);
        }),
      );
    });

    it("should keep history order and reuse the input objects", () => {
      fc.assert(
        fc.property(historyArbitrary({ broken: true }), (history) => {
          const { messages, sources } = repairToolPairs(history);
          expect(sources).toHaveLength(messages.length);
          let previous = -1;
          sources.forEach((source, index) => {
            if (source === null) return;
            expect(source).toBeGreaterThan(previous);
            expect(messages[index]).toBe(history[source]);
            previous = source;
          });
        }),
      );
    });

    it("should keep every non-tool message and every result paired with its call, and nothing else", () => {
      fc.assert(
        fc.property(historyArbitrary({ broken: true }), (history) => {
          const paired = new Set<number>();
          for (const unit of findToolUnits(history)) {
            for (let index = unit.start; index < unit.end; index += 1) {
              if (unit.kind === "tool" || history[index]!.role !== "tool") paired.add(index);
            }
          }
          const { sources, repairs } = repairToolPairs(history);
          expect(sources.filter((source) => source !== null)).toEqual([...paired]);
          const dropped = history.map((_message, index) => index).filter((index) => !paired.has(index));
          expect(repairs.filter((repair) => repair.kind === "orphan_result").map((repair) => repair.index)).toEqual(dropped);
        }),
      );
    });

    it("should add one synthetic result per dangling call, and nothing more", () => {
      fc.assert(
        fc.property(historyArbitrary({ broken: true }), (history) => {
          const danglingIds = checkToolPairs(history)
            .filter((violation) => violation.kind === "dangling_call")
            .map((violation) => violation.toolCallId);
          const { messages, sources, repairs } = repairToolPairs(history);
          const syntheticIds = messages.flatMap((message, index) =>
            sources[index] === null && message.role === "tool" ? [message.tool_call_id] : [],
          );
          expect(syntheticIds).toEqual(danglingIds);
          expect(repairs.filter((repair) => repair.kind === "dangling_call").flatMap((repair) => repair.toolCallIds)).toEqual(danglingIds);
        }),
      );
    });

    it("should be the identity on a valid history", () => {
      fc.assert(
        fc.property(historyArbitrary(), (history) => {
          expect(checkToolPairs(history)).toEqual([]);
          const { messages, sources, repairs } = repairToolPairs(history);
          expect(repairs).toEqual([]);
          expect(messages).toHaveLength(history.length);
          messages.forEach((message, index) => expect(message).toBe(history[index]));
          expect(sources).toEqual(history.map((_message, index) => index));
        }),
      );
    });
  });
});

// The check as first written, one set for the whole sequence: the faster one must agree with it everywhere.
function setBasedIsValid(messages: readonly Message[]): boolean {
  const unanswered = new Set<string>();
  for (const message of messages) {
    if (message.role === "tool") {
      if (!unanswered.delete(message.tool_call_id)) return false;
      continue;
    }
    if (unanswered.size > 0) return false;
    if (message.role === "assistant" && message.tool_calls !== undefined && message.tool_calls.length > 0) {
      for (const call of message.tool_calls) unanswered.add(call.id);
      if (unanswered.size !== message.tool_calls.length) return false;
    }
  }
  return unanswered.size === 0;
}

describe("hasNothingToRepair", () => {
  it("should agree with one set over the whole sequence, from any index, on whole and broken histories", () => {
    fc.assert(
      fc.property(historyArbitrary({ broken: true }), fc.nat(), (history, at) => {
        const from = history.length === 0 ? 0 : at % (history.length + 1);
        expect(hasNothingToRepair(history, from)).toBe(setBasedIsValid(history.slice(from)));
        expect(hasNothingToRepair(history)).toBe(repairToolPairs(history).repairs.length === 0 && setBasedIsValid(history));
      }),
      { numRuns: 300 },
    );
  });

  it("should find a second result, a repeated id, a missing one and a stray one after a whole unit", () => {
    expect(hasNothingToRepair([calling("a"), result("a"), answer])).toBe(true);
    expect(hasNothingToRepair([calling("a", "b"), result("b"), result("a")])).toBe(true);
    expect(hasNothingToRepair([calling("a"), result("a"), result("a")])).toBe(false);
    expect(hasNothingToRepair([calling("a", "a"), result("a"), result("a")])).toBe(false);
    expect(hasNothingToRepair([calling("a", "b"), result("a"), answer])).toBe(false);
    expect(hasNothingToRepair([calling("a")])).toBe(false);
    expect(hasNothingToRepair([user, result("a")])).toBe(false);
  });
});
