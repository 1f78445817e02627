import { describe, expect, it } from "vitest";
import { assistantMessage, createTestContext, createTestView, toolResultMessage, userMessage } from "../../test/strategy-context.js";
import { ContextConfigError } from "../errors.js";
import type { Message, ToolMessage } from "../messages/message.js";
import { isRerunnableToolResult, microcompact } from "./microcompact.js";

const call = (id: string, name: string): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name, arguments: "{}" } }],
});
const output = "x ".repeat(200);

const conversation: Message[] = [
  userMessage("task"),
  call("r1", "read_file"),
  toolResultMessage("r1", output),
  call("b1", "run_tests"),
  toolResultMessage("b1", output),
  call("r2", "grep"),
  toolResultMessage("r2", output),
  call("r3", "read_file"),
  toolResultMessage("r3", output),
  assistantMessage("done"),
  userMessage("next"),
];

const contents = (view: { entries: readonly { message: Message }[] }): unknown[] => view.entries.map((entry) => entry.message.content);

describe("microcompact", () => {
  describe("classifier", () => {
    it("should clear old results of re-runnable tools and keep others and the newest ones", async () => {
      const result = await microcompact({ keepRecent: 1 }).apply(createTestView(conversation), createTestContext());
      const after = contents(result.view);
      expect(after[2]).toMatch(/^\[stale read_file result cleared: \d+ tokens/);
      expect(after[4]).toBe(output); // run_tests is not re-runnable
      expect(after[6]).toMatch(/^\[stale grep result cleared/);
      expect(after[8]).toBe(output); // the newest result
      expect(result.view.entries[2]!.edit).toEqual({
        strategy: "microcompact",
        originalTokens: createTestView(conversation).entries[2]!.tokens,
      });
    });

    it("should take a classifier of its own", async () => {
      const result = await microcompact({ keepRecent: 0, isClearable: (name) => name === "run_tests" }).apply(
        createTestView(conversation),
        createTestContext(),
      );
      const after = contents(result.view);
      expect(after[4]).toMatch(/^\[stale run_tests result cleared/);
      expect(after[2]).toBe(output);
    });

    it("should stop at the target and leave the draft alone when nothing is clearable", async () => {
      const view = createTestView(conversation);
      expect(await microcompact().apply(view, createTestContext({ target: view.tokens }))).toEqual({ view, applied: false });
      expect(isRerunnableToolResult("write_file", toolResultMessage("a", "b") as ToolMessage)).toBe(false);
      expect(isRerunnableToolResult("web_fetch", toolResultMessage("a", "b") as ToolMessage)).toBe(true);
    });
  });

  describe("idleMs", () => {
    it("should announce a 5-minute pause by default, its own value, or none for null", () => {
      expect(microcompact().idleAfterMs).toBe(300_000);
      expect(microcompact({ idleMs: 1_000 }).idleAfterMs).toBe(1_000);
      expect(microcompact({ idleMs: null }).idleAfterMs).toBeUndefined();
    });

    it("should reject bad options", () => {
      expect(() => microcompact({ idleMs: -1 })).toThrow(ContextConfigError);
      expect(() => microcompact({ keepRecent: 1.5 })).toThrow(ContextConfigError);
    });
  });
});
