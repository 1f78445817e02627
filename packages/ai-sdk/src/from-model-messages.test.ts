import { AdapterInputError } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { fromModelMessages } from "./from-model-messages.js";

describe("fromModelMessages", () => {
  it("should put the system option first", () => {
    expect(fromModelMessages([{ role: "user", content: "hi" }], { system: "Be terse." })).toEqual([
      { role: "system", content: "Be terse." },
      { role: "user", content: "hi" },
    ]);
  });

  it("should split a tool message into one ctxkit tool message per result, with arguments as JSON strings", () => {
    const messages = fromModelMessages([
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "a", toolName: "search", input: { q: "x" } },
          { type: "tool-call", toolCallId: "b", toolName: "search", input: { q: "y" } },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "a", toolName: "search", output: { type: "json", value: { hits: 1 } } },
          { type: "tool-result", toolCallId: "b", toolName: "search", output: { type: "text", value: "none" } },
        ],
      },
    ]);
    expect(messages).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "a", type: "function", function: { name: "search", arguments: '{"q":"x"}' } },
          { id: "b", type: "function", function: { name: "search", arguments: '{"q":"y"}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: '{"hits":1}', aiSdk: { output: { type: "json" } } },
      { role: "tool", tool_call_id: "b", content: "none" },
    ]);
  });

  it("should store bytes and URL objects as JSON-safe strings", () => {
    const [message] = fromModelMessages([
      {
        role: "user",
        content: [
          { type: "image", image: new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]) },
          { type: "image", image: new URL("https://x.test/a.png") },
          { type: "file", data: new Uint8Array([1, 2, 3]), mediaType: "application/pdf" },
        ],
      },
    ]);
    expect(message!.content).toEqual([
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      { type: "image_url", image_url: { url: "https://x.test/a.png" } },
      { type: "file", file: { file_data: "data:application/pdf;base64,AQID" } },
    ]);
  });

  it("should keep provider-executed calls and their results inside the assistant message, out of tool_calls", () => {
    const [message] = fromModelMessages([
      {
        role: "assistant",
        content: [
          { type: "tool-call", toolCallId: "s1", toolName: "web_search", input: {}, providerExecuted: true },
          { type: "tool-result", toolCallId: "s1", toolName: "web_search", output: { type: "text", value: "r" } },
          { type: "text", text: "done" },
        ],
      },
    ]);
    expect(message).not.toHaveProperty("tool_calls");
    expect(message!.content).toHaveLength(3);
  });

  it("should reject tool approvals with a typed error", () => {
    expect(() =>
      fromModelMessages([{ role: "tool", content: [{ type: "tool-approval-response", approvalId: "x", approved: true }] }]),
    ).toThrow(AdapterInputError);
  });
});
