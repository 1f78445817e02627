import { ContextStreamError } from "@ctxkit/core";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import { messageAssembly } from "./message-assembly.js";

const event = (value: Record<string, unknown>) => value as unknown as RawMessageStreamEvent;
const start = event({
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 0, output_tokens: 1 },
  },
});

describe("messageAssembly", () => {
  it("should build each block from its deltas and take the stop reason, edits and usage of message_delta", () => {
    const assembly = messageAssembly();
    for (const part of [
      start,
      event({ type: "content_block_start", index: 0, content_block: { type: "compaction", content: null, encrypted_content: null } }),
      event({ type: "content_block_delta", index: 0, delta: { type: "compaction_delta", content: "Summary.", encrypted_content: null } }),
      event({ type: "content_block_stop", index: 0 }),
      event({ type: "content_block_start", index: 1, content_block: { type: "thinking", thinking: "", signature: "" } }),
      event({ type: "content_block_delta", index: 1, delta: { type: "thinking_delta", thinking: "Let me " } }),
      event({ type: "content_block_delta", index: 1, delta: { type: "thinking_delta", thinking: "think 🤔" } }),
      event({ type: "content_block_delta", index: 1, delta: { type: "signature_delta", signature: "EqQB+/==" } }),
      event({ type: "content_block_stop", index: 1 }),
      event({ type: "content_block_start", index: 2, content_block: { type: "text", text: "" } }),
      event({ type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "See " } }),
      event({
        type: "content_block_delta",
        index: 2,
        delta: { type: "citations_delta", citation: { type: "char_location", cited_text: "x" } },
      }),
      event({ type: "content_block_stop", index: 2 }),
      event({ type: "content_block_start", index: 3, content_block: { type: "tool_use", id: "toolu_1", name: "read_file", input: {} } }),
      event({ type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: '{"path":' } }),
      event({ type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: '"a.txt"}' } }),
      event({ type: "content_block_stop", index: 3 }),
      event({
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        context_management: { applied_edits: [{ type: "clear_tool_uses_20250919", cleared_input_tokens: 5 }] },
        usage: { input_tokens: null, cache_read_input_tokens: 90, output_tokens: 42 },
      }),
      event({ type: "message_stop" }),
    ])
      assembly.add(part);
    expect(assembly.finish()).toMatchObject({
      stop_reason: "tool_use",
      context_management: { applied_edits: [{ cleared_input_tokens: 5 }] },
      usage: { input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 0, output_tokens: 42 },
      content: [
        { type: "compaction", content: "Summary.", encrypted_content: null },
        { type: "thinking", thinking: "Let me think 🤔", signature: "EqQB+/==" },
        { type: "text", text: "See ", citations: [{ type: "char_location", cited_text: "x" }] },
        { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.txt" } },
      ],
    });
  });

  it("should call a stream without message_stop short", () => {
    const assembly = messageAssembly();
    assembly.add(start);
    assembly.add(event({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 3 } }));
    expect(assembly.finish()).toBeUndefined();
  });

  it.each([
    ["an event before message_start", [event({ type: "content_block_stop", index: 0 })], /before message_start/],
    [
      "a delta for a block that never started",
      [start, event({ type: "content_block_delta", index: 4, delta: { type: "text_delta", text: "x" } })],
      /block 4/,
    ],
    [
      "a tool input that is no JSON once whole",
      [
        start,
        event({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_1", name: "read_file", input: {} } }),
        event({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"path":' } }),
        event({ type: "content_block_stop", index: 0 }),
      ],
      /tool block 0/,
    ],
  ])("should fail on %s with a ContextStreamError naming it", (_case, events, reason) => {
    const assembly = messageAssembly();
    const adding = () => {
      for (const part of events) assembly.add(part);
    };
    expect(adding).toThrow(ContextStreamError);
    expect(() => {
      const again = messageAssembly();
      for (const part of events) again.add(part);
    }).toThrow(reason);
  });
});
