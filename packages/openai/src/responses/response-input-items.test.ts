import { ContextValidationError, deepFreeze, parseMessages, type Message } from "@ctxkit/core";
import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { fromResponseInputItems } from "./from-response-input-items.js";
import { toResponseInputItems } from "./to-response-input-items.js";

const reasoning = {
  type: "reasoning" as const,
  id: "rs_1",
  summary: [{ type: "summary_text" as const, text: "Need the file list." }],
  encrypted_content: "gAAAA-opaque",
};

describe("toResponseInputItems", () => {
  it("should put each call right after its assistant message and each result as function_call_output", () => {
    const view: Message[] = [
      { role: "developer", content: "Use tools.", metadata: { pinned: true } },
      {
        role: "user",
        content: [
          { type: "text", text: "List" },
          { type: "image_url", image_url: { url: "https://x/y.png", detail: "low" } },
        ],
      },
      { role: "assistant", content: "Looking.", tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "a.txt" },
    ];
    const items: ResponseInputItem[] = toResponseInputItems(view);
    expect(items).toEqual([
      { type: "message", role: "developer", content: "Use tools." },
      {
        type: "message",
        role: "user",
        content: [
          { type: "input_text", text: "List" },
          { type: "input_image", image_url: "https://x/y.png", detail: "low" },
        ],
      },
      { type: "message", role: "assistant", content: "Looking." },
      { type: "function_call", call_id: "c1", name: "ls", arguments: "{}" },
      { type: "function_call_output", call_id: "c1", output: "a.txt" },
    ]);
  });

  it("should reject a part the Responses API cannot take", () => {
    expect(() =>
      toResponseInputItems([{ role: "user", content: [{ type: "input_audio", input_audio: { data: "A", format: "wav" } }] }]),
    ).toThrow(ContextValidationError);
  });
});

describe("fromResponseInputItems", () => {
  it("should make one assistant message of a turn's reasoning, text and calls, keeping the reasoning item whole", () => {
    const output: ResponseOutputItem[] = [
      reasoning,
      {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: "Looking.", annotations: [] }],
      },
      { type: "function_call", id: "fc_1", call_id: "c1", name: "ls", arguments: "{}", status: "completed" },
      { type: "function_call", id: "fc_2", call_id: "c2", name: "pwd", arguments: "{}", status: "completed" },
    ];
    const messages = parseMessages([
      ...fromResponseInputItems([{ role: "user", content: "List" }, ...output]),
      ...fromResponseInputItems([
        { type: "function_call_output", call_id: "c1", output: "a.txt" },
        { type: "function_call_output", call_id: "c2", output: [{ type: "input_text", text: "/" }] },
      ]),
    ]);
    expect(messages).toEqual([
      { role: "user", content: "List" },
      {
        role: "assistant",
        content: [reasoning, { type: "text", text: "Looking." }],
        tool_calls: [
          { id: "c1", type: "function", function: { name: "ls", arguments: "{}" } },
          { id: "c2", type: "function", function: { name: "pwd", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "a.txt" },
      { role: "tool", tool_call_id: "c2", content: [{ type: "text", text: "/" }] },
    ]);
    // Back to the API: the reasoning item (and its encrypted content) precedes the text and calls, as it came.
    const items = toResponseInputItems(messages.map((message) => deepFreeze(message)));
    expect(items.slice(1, 5)).toEqual([
      reasoning,
      { type: "message", role: "assistant", content: "Looking." },
      { type: "function_call", call_id: "c1", name: "ls", arguments: "{}" },
      { type: "function_call", call_id: "c2", name: "pwd", arguments: "{}" },
    ]);
  });

  it("should start a new assistant message for text that follows a turn's calls", () => {
    const messages = fromResponseInputItems([
      { type: "function_call", call_id: "c1", name: "ls", arguments: "{}" },
      { role: "assistant", content: "later" },
    ]);
    expect(messages.map((message) => message.content)).toEqual([null, [{ type: "text", text: "later" }]]);
  });

  it("should reject an item ctxkit cannot place, naming its type and index", () => {
    expect(() =>
      fromResponseInputItems([
        { role: "user", content: "x" },
        { type: "item_reference", id: "msg_1" },
      ]),
    ).toThrow(/entry 1.*"item_reference"/);
  });
});
