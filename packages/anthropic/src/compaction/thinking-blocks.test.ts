// Thinking blocks are signed: they reach Anthropic byte-identical, or leave the view with their whole turn.
import { createSimpleContext } from "@ctxkit/context-simple";
import { describe, expect, it } from "vitest";
import { fromAnthropicMessages } from "../from-anthropic-messages.js";
import { toAnthropicMessages } from "../to-anthropic-messages.js";

const thinking = {
  type: "thinking",
  thinking: "Let me think about the files. ".repeat(400),
  signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds",
};

describe("thinking blocks through compaction", () => {
  it("should send every thinking block byte-identical, or not at all with its turn, while long texts around it are trimmed", async () => {
    const context = createSimpleContext({
      maxTokens: 9_000,
      safetyMargin: 0,
      strategies: ["clear-tool-results", { name: "trim-long-text", options: { maxChars: 2_000 } }, "truncate"],
    });
    for (let turn = 0; turn < 6; turn += 1) {
      await context.addMessage({ role: "user", content: `Question ${turn}` });
      const response = {
        role: "assistant",
        content: [thinking, { type: "text", text: `Answer ${turn}. ${"Long explanation. ".repeat(300)}` }],
      };
      for (const message of fromAnthropicMessages([response as never])) await context.addMessage(message);
    }
    const request = toAnthropicMessages(await context.getMessagesForRequest(), { cache: false });
    const blocks = request.messages.flatMap((message) => (typeof message.content === "string" ? [] : message.content));
    const sentThinking = blocks.filter((block) => block.type === "thinking");
    for (const block of sentThinking) expect(JSON.stringify(block)).toBe(JSON.stringify(thinking));
    // Some answers were trimmed and some turns left: the check above ran against a compacted view.
    expect(blocks.some((block) => block.type === "text" && block.text.includes("characters trimmed"))).toBe(true);
    expect(sentThinking.length).toBeGreaterThan(0);
    expect(sentThinking.length).toBeLessThan(6);
    // Every thinking block sent still opens its assistant turn.
    for (const message of request.messages) {
      if (typeof message.content === "string") continue;
      const index = message.content.findIndex((block) => block.type === "thinking");
      if (index >= 0) expect(message.role).toBe("assistant");
    }
  });
});
