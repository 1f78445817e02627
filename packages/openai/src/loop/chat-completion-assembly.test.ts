import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { chatCompletionAssembly } from "./chat-completion-assembly.js";

type Delta = ChatCompletionChunk.Choice.Delta;

function chunk(delta: Delta, finishReason: ChatCompletionChunk.Choice["finish_reason"] = null): ChatCompletionChunk {
  return {
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "gpt-4.1-mini",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

const usage: ChatCompletionChunk = {
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt-4.1-mini",
  choices: [],
  usage: { prompt_tokens: 40, completion_tokens: 9, total_tokens: 49 },
};

describe("chatCompletionAssembly", () => {
  it("should put parallel tool calls together by index, their arguments exactly as the pieces came", () => {
    const assembly = chatCompletionAssembly();
    for (const part of [
      chunk({ role: "assistant", content: null }),
      chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "read_file", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path": ' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a.txt"' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '"b.txt" }' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: "}" } }] }),
      chunk({}, "tool_calls"),
      usage,
    ])
      assembly.add(part);
    const completion = assembly.finish()!;
    expect(completion.choices[0]!.message).toEqual({
      role: "assistant",
      content: null,
      refusal: null,
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } },
        { id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path": "b.txt" }' } },
      ],
    });
    expect(completion.choices[0]!.finish_reason).toBe("tool_calls");
    expect(completion.usage).toEqual(usage.usage);
  });

  it("should join the text and the refusal pieces", () => {
    const assembly = chatCompletionAssembly();
    for (const part of [
      chunk({ role: "assistant", content: "" }),
      chunk({ content: "Hé 🙂" }),
      chunk({ refusal: "No." }),
      chunk({}, "stop"),
      usage,
    ])
      assembly.add(part);
    expect(assembly.finish()!.choices[0]!.message).toEqual({ role: "assistant", content: "Hé 🙂", refusal: "No." });
  });

  it.each([
    ["without its finish reason", [chunk({ content: "Hel" }), usage]],
    ["without its usage chunk", [chunk({ content: "Hello" }), chunk({}, "stop")]],
    ["with no chunk at all", []],
  ])("should call a stream %s short", (_case, chunks) => {
    const assembly = chatCompletionAssembly();
    for (const part of chunks) assembly.add(part);
    expect(assembly.finish()).toBeUndefined();
  });
});
