import { describe, expect, it } from "vitest";
import { createTestContext, createTestView, toolCallMessage, toolResultMessage, userMessage } from "../../test/strategy-context.js";
import { ContextConfigError } from "../errors.js";
import { offloadToolResults } from "./offload-tool-results.js";

const big = "line of output\n".repeat(400);
const conversation = [
  userMessage("task"),
  toolCallMessage("a"),
  toolResultMessage("a", big),
  toolCallMessage("b"),
  toolResultMessage("b", "small"),
  toolCallMessage("c"),
  toolResultMessage("c", big),
  userMessage("next"),
];

describe("offloadToolResults", () => {
  describe("minTokens", () => {
    it("should replace large results with a reference naming the call id, and keep small and recent ones", async () => {
      const view = createTestView(conversation);
      const result = await offloadToolResults().apply(view, createTestContext());
      const content = result.view.entries.map((entry) => entry.message.content);
      expect(content[2]).toMatch(/^\[tool result offloaded: \d+ tokens, 6000 characters\. It starts: "line of output\\nline/);
      expect(content[2]).toContain('Call retrieve_tool_result with {"tool_call_id":"a","index":2}');
      expect(content[4]).toBe("small");
      expect(content[6]).toBe(big); // the newest result stays (keepRecent 1)
      expect(result.view.entries[2]!.edit?.strategy).toBe("offload-tool-results");
      expect(result.view.tokens).toBeLessThan(view.tokens);
    });

    it("should offload the newest too with keepRecent 0, and nothing under minTokens", async () => {
      const all = await offloadToolResults({ keepRecent: 0 }).apply(createTestView(conversation), createTestContext());
      expect(String(all.view.entries[6]!.message.content)).toMatch(/^\[tool result offloaded/);
      const view = createTestView(conversation);
      expect(await offloadToolResults({ minTokens: 1_000_000 }).apply(view, createTestContext())).toEqual({ view, applied: false });
    });

    it("should reject bad options", () => {
      expect(() => offloadToolResults({ minTokens: 0 })).toThrow(ContextConfigError);
      expect(() => offloadToolResults({ previewChars: -1 })).toThrow(ContextConfigError);
    });
  });
});
