// The imitations' server-sent events are what the real services send, as far as the SDKs can tell: each SDK's own
// stream helper (its event parser and accumulator) turns a streamed reply into the reply the same request gets
// unstreamed, and the loop drivers' assemblies agree with it.
import Anthropic from "@anthropic-ai/sdk";
import { contextChatCompletions, contextResponses } from "@ctxkit/openai";
import { contextMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { withOrdinalIds } from "./ordinal-ids.js";
import { questionFor } from "./scripted-model.js";

let openAIServer: LoopbackServer;
let anthropicServer: LoopbackServer;
let openAI: OpenAI;
let anthropic: Anthropic;
beforeAll(async () => {
  [openAIServer, anthropicServer] = await Promise.all([startOpenAIImitation(), startAnthropicImitation()]);
  openAI = new OpenAI({ baseURL: `${openAIServer.url}/v1`, apiKey: "test", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: anthropicServer.url, apiKey: "test", maxRetries: 0 });
});
afterAll(() => Promise.all([openAIServer.close(), anthropicServer.close()]));

// Turn 4 calls a tool first; with a tool result it answers in text. Both shapes are streamed.
const toolResult = (id: string) => `${id}: the file lists build steps.`;

describe("the Chat Completions imitation's stream", () => {
  it.each(["a tool call", "a text answer"])("should give client.chat.completions.stream the completion of %s", async (shape) => {
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: questionFor(4) }];
    if (shape === "a text answer")
      messages.push(
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "call_1", content: toolResult("call_1") },
      );
    const unstreamed = await openAI.chat.completions.create({ model: "gpt-4.1-mini", messages });
    const helper = openAI.chat.completions.stream({ model: "gpt-4.1-mini", messages, stream_options: { include_usage: true } });
    const streamed = await helper.finalChatCompletion();
    expect(withOrdinalIds(streamed.choices[0]!.message)).toMatchObject(
      withOrdinalIds({ ...unstreamed.choices[0]!.message, annotations: undefined }),
    );
    expect(streamed.choices[0]!.finish_reason).toBe(unstreamed.choices[0]!.finish_reason);
    expect(streamed.usage).toEqual(unstreamed.usage);
    // The loop driver's own assembly gives what the SDK's gives.
    const driven = await contextChatCompletions(openAI, createSimpleContext({ maxTokens: 8_192 })).create({
      model: "gpt-4.1-mini",
      stream: true,
      messages,
    });
    const assembled = await driven.finalResponse();
    expect(withOrdinalIds(assembled.choices[0]!.message)).toEqual(withOrdinalIds({ ...streamed.choices[0]!.message, parsed: undefined }));
  });
});

describe("the Responses imitation's stream", () => {
  it("should give client.responses.stream the response a non-streamed request gets", async () => {
    const params = { model: "gpt-5-mini", input: questionFor(4), reasoning: { effort: "low" as const }, store: false };
    const unstreamed = await openAI.responses.create(params);
    const final = await openAI.responses.stream(params).finalResponse();
    // The helper parses function arguments for its own tools (`parsed_arguments`): not a field the service sends.
    const streamed = {
      ...final,
      output: (final.output as unknown as Record<string, unknown>[]).map(({ parsed_arguments: _parsed, ...item }) => item),
    };
    expect(withOrdinalIds(streamed.output)).toEqual(withOrdinalIds(unstreamed.output));
    // The output count covers the reasoning item's fresh id, so only the input's compares.
    expect(streamed.usage?.input_tokens).toBe(unstreamed.usage?.input_tokens);
    const driven = await contextResponses(openAI, createSimpleContext({ maxTokens: 8_192 })).create({ ...params, stream: true });
    expect(withOrdinalIds((await driven.finalResponse()).output)).toEqual(withOrdinalIds(streamed.output));
  });
});

describe("the Messages imitation's stream", () => {
  it.each(["a tool call", "a text answer"])("should give client.messages.stream the message of %s, thinking included", async (shape) => {
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: questionFor(4) }];
    const thinking = { type: "enabled" as const, budget_tokens: 1_024 };
    if (shape === "a text answer") {
      // With thinking on, the tool turn a result answers must open with the thinking the model signed for it.
      const turn = await anthropic.messages.create({ model: "claude-sonnet-4-6", max_tokens: 2_048, thinking, messages });
      const call = turn.content.find((block) => block.type === "tool_use")!;
      messages.push(
        { role: "assistant", content: turn.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: toolResult(call.id) }] },
      );
    }
    const params = { model: "claude-sonnet-4-6", max_tokens: 2_048, thinking, messages };
    const unstreamed = await anthropic.messages.create(params);
    const streamed = await anthropic.messages.stream(params).finalMessage();
    expect(withOrdinalIds(streamed.content)).toEqual(withOrdinalIds(unstreamed.content));
    expect(streamed.content[0]).toMatchObject({ type: "thinking", signature: expect.stringMatching(/==$/) });
    expect(streamed.usage).toMatchObject({ input_tokens: unstreamed.usage.input_tokens, output_tokens: unstreamed.usage.output_tokens });
    const driven = await contextMessages(anthropic, createSimpleContext({ maxTokens: 8_192 })).create({ ...params, stream: true });
    const assembled = await driven.finalResponse();
    expect(withOrdinalIds(assembled.content)).toEqual(withOrdinalIds(streamed.content));
    // A later request of the same prefix reads the imitation's prompt cache: the whole prompt is what compares.
    const whole = (usage: Anthropic.Usage) =>
      usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
    expect(whole(assembled.usage)).toBe(whole(streamed.usage));
    expect(assembled.usage.output_tokens).toBe(streamed.usage.output_tokens);
  });
});
