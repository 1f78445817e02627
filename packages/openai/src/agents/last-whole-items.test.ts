import { historyArbitrary } from "@ctxkit/conformance";
import { createSimpleContext } from "@ctxkit/context-simple";
import { checkToolPairs } from "@ctxkit/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AgentInputItem } from "./agent-input-item.js";
import { fromAgentInputItems, toAgentInputItems } from "./agent-items.js";
import { CtxkitSession } from "./ctxkit-session.js";
import { lastWholeItems } from "./last-whole-items.js";

const parallelUnit: AgentInputItem[] = [
  { role: "user", content: "look both up" },
  { type: "function_call", callId: "call_a", name: "search", arguments: "{}", status: "completed" },
  { type: "function_call", callId: "call_b", name: "search", arguments: "{}", status: "completed" },
  { type: "function_call_result", callId: "call_a", name: "search", status: "completed", output: "a" },
  { type: "function_call_result", callId: "call_b", name: "search", status: "completed", output: "b" },
  { role: "assistant", status: "completed", content: [{ type: "output_text", text: "done" }] },
];

describe("lastWholeItems", () => {
  it("should drop a parallel unit the cut would split rather than start with an orphan result", () => {
    expect(lastWholeItems(parallelUnit, 4)).toEqual(parallelUnit.slice(-1));
    expect(lastWholeItems(parallelUnit, 5)).toEqual(parallelUnit.slice(-5));
    expect(lastWholeItems(parallelUnit, 0)).toEqual([]);
    expect(lastWholeItems(parallelUnit, 99)).toEqual(parallelUnit);
  });

  it("should return whole tool units and at most limit items, for every limit", () => {
    fc.assert(
      fc.property(historyArbitrary({ hugeOutputs: false }), (history) => {
        const items = toAgentInputItems(history);
        for (let limit = 0; limit <= items.length + 1; limit += 1) {
          const part = lastWholeItems(items, limit);
          expect(part.length).toBeLessThanOrEqual(limit);
          expect(part).toEqual(items.slice(items.length - part.length));
          expect(checkToolPairs(fromAgentInputItems(part))).toEqual([]);
        }
      }),
    );
  });
});

describe("CtxkitSession.getItems(limit)", () => {
  it("should never start with a result whose call is cut off, for every limit", async () => {
    await fc.assert(
      fc.asyncProperty(historyArbitrary({ hugeOutputs: false, maxSegments: 6 }), async (history) => {
        const session = new CtxkitSession({ manager: createSimpleContext({ tokenizer: "estimate" }) });
        await session.addItems(toAgentInputItems(history));
        const all = await session.getItems();
        for (let limit = 1; limit <= all.length; limit += 1) {
          const part = await session.getItems(limit);
          expect(part.length).toBeLessThanOrEqual(limit);
          expect(checkToolPairs(fromAgentInputItems(part))).toEqual([]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
