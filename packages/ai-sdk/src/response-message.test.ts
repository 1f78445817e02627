import { describe, expect, it } from "vitest";
import { toResponseMessage } from "./response-message.js";

describe("toResponseMessage", () => {
  it("should record the response as the AI SDK does: parsed inputs, metadata as providerOptions, no empty text or sources", () => {
    expect(
      toResponseMessage([
        { type: "text", text: "" },
        { type: "source", sourceType: "url", id: "s", url: "https://x.test" },
        { type: "reasoning", text: "why", providerMetadata: { anthropic: { signature: "sig" } } },
        { type: "tool-call", toolCallId: "c", toolName: "f", input: '{"a":1}' },
        { type: "tool-call", toolCallId: "s1", toolName: "web", input: "{}", providerExecuted: true },
        { type: "tool-result", toolCallId: "s1", toolName: "web", result: { hits: 2 } },
      ]),
    ).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "why", providerOptions: { anthropic: { signature: "sig" } } },
        { type: "tool-call", toolCallId: "c", toolName: "f", input: { a: 1 } },
        { type: "tool-call", toolCallId: "s1", toolName: "web", input: {}, providerExecuted: true },
        { type: "tool-result", toolCallId: "s1", toolName: "web", output: { type: "json", value: { hits: 2 } } },
      ],
    });
  });

  it("should give nothing for an empty response", () => {
    expect(toResponseMessage([{ type: "text", text: "" }])).toBeUndefined();
  });
});
