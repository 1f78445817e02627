import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { historyArbitrary } from "../../test/arbitraries.js";
import type { AssistantMessage, ToolMessage } from "../messages/message.js";
import { findToolUnits } from "./find-tool-units.js";

function calling(...ids: string[]): AssistantMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "bash", arguments: "{}" } })),
  };
}

function result(toolCallId: string): ToolMessage {
  return { role: "tool", tool_call_id: toolCallId, content: "ok" };
}

describe("findToolUnits", () => {
  describe("pairing by adjacency", () => {
    it("should put results in a different order than the calls into the calls' unit", () => {
      expect(findToolUnits([calling("a", "b"), result("b"), result("a")])).toEqual([{ start: 0, end: 3, kind: "tool" }]);
    });

    it("should end a unit at a result that answers none of its calls, or answers one twice", () => {
      expect(findToolUnits([calling("a"), result("a"), result("a"), result("ghost")])).toEqual([
        { start: 0, end: 2, kind: "tool" },
        { start: 2, end: 3, kind: "single" },
        { start: 3, end: 4, kind: "single" },
      ]);
    });
  });

  describe("repeated ids", () => {
    it("should take one result for a call id an assistant message repeats, as its unit answers each id once", () => {
      expect(findToolUnits([calling("a", "a"), result("a"), result("a")])).toEqual([
        { start: 0, end: 2, kind: "tool" },
        { start: 2, end: 3, kind: "single" },
      ]);
    });
  });

  describe("partition", () => {
    it("should cover any history, broken or not, with contiguous units in order", () => {
      fc.assert(
        fc.property(historyArbitrary({ broken: true }), (history) => {
          const units = findToolUnits(history);
          let expectedStart = 0;
          for (const unit of units) {
            expect(unit.start).toBe(expectedStart);
            expect(unit.end).toBeGreaterThan(unit.start);
            const opener = history[unit.start]!;
            const isToolUnit = opener.role === "assistant" && (opener.tool_calls?.length ?? 0) > 0;
            expect(unit.kind).toBe(isToolUnit ? "tool" : "single");
            if (unit.kind === "single") expect(unit.end - unit.start).toBe(1);
            expectedStart = unit.end;
          }
          expect(expectedStart).toBe(history.length);
        }),
      );
    });
  });
});
