import { describe, expect, it } from "vitest";
import { StreamContent } from "./stream-content.js";

describe("StreamContent", () => {
  it("should join deltas per part, keep the order parts began in, and take the end part's metadata", () => {
    const content = new StreamContent();
    content.add({ type: "reasoning-start", id: "r" });
    content.add({ type: "text-start", id: "t" });
    content.add({ type: "reasoning-delta", id: "r", delta: "think" });
    content.add({ type: "text-delta", id: "t", delta: "Hel" });
    content.add({ type: "text-delta", id: "t", delta: "lo" });
    content.add({ type: "reasoning-end", id: "r", providerMetadata: { anthropic: { signature: "sig" } } });
    content.add({ type: "text-end", id: "t" });
    content.add({ type: "tool-call", toolCallId: "c", toolName: "f", input: "{}" });
    content.add({
      type: "finish",
      finishReason: { unified: "tool-calls", raw: undefined },
      usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
    });
    expect(content.result()).toEqual([
      { type: "reasoning", text: "think", providerMetadata: { anthropic: { signature: "sig" } } },
      { type: "text", text: "Hello" },
      { type: "tool-call", toolCallId: "c", toolName: "f", input: "{}" },
    ]);
  });
});
