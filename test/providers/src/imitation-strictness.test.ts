// The imitations refuse what the services refuse, with their statuses and error bodies, through the real SDK clients.
import Anthropic from "@anthropic-ai/sdk";
import { ContextOverflowError } from "@ctxkit/core";
import { contextChatCompletions } from "@ctxkit/openai";
import { createSimpleContext } from "@ctxkit/context-simple";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { questionFor, readFile } from "./scripted-model.js";

let openAIServer: LoopbackServer;
let anthropicServer: LoopbackServer;
let openai: OpenAI;
let anthropic: Anthropic;
beforeAll(async () => {
  [openAIServer, anthropicServer] = await Promise.all([startOpenAIImitation(), startAnthropicImitation()]);
  openai = new OpenAI({ baseURL: `${openAIServer.url}/v1`, apiKey: "test", maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: anthropicServer.url, apiKey: "test", maxRetries: 0 });
});
afterAll(() => Promise.all([openAIServer.close(), anthropicServer.close()]));

async function rejectionOf(promise: Promise<unknown>): Promise<{ status?: number; message: string; code?: unknown; error?: unknown }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error === undefined) throw new Error("the imitation accepted the request");
  return error as { status?: number; message: string };
}

const tools = [
  {
    type: "function" as const,
    function: { name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  },
];
const call = { id: "call_1", type: "function" as const, function: { name: "read_file", arguments: "{}" } };

describe("the Chat Completions imitation", () => {
  it("should refuse an unknown top-level key and an unknown message key", async () => {
    const body = { model: "gpt-4.1-mini", messages: [{ role: "user" as const, content: "Hi" }], foo: 1 } as never;
    expect(await rejectionOf(openai.chat.completions.create(body))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/Unrecognized request argument supplied: foo/),
    });
    const message = { role: "user", content: "Hi", metadata: { pinned: true } } as never;
    expect(await rejectionOf(openai.chat.completions.create({ model: "gpt-4.1-mini", messages: [message] }))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/Additional properties are not allowed \('metadata' was unexpected\)/),
    });
  });

  it("should refuse a call with no result, a result with no call, and an id over 40 characters", async () => {
    const unanswered = openai.chat.completions.create({
      model: "gpt-4.1-mini",
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "user", content: "Well?" },
      ],
    });
    expect((await rejectionOf(unanswered)).message).toMatch(/did not have response messages: call_1/);
    const orphan = openai.chat.completions.create({
      model: "gpt-4.1-mini",
      messages: [
        { role: "user", content: "Hi" },
        { role: "tool", tool_call_id: "call_1", content: "x" },
      ],
    });
    expect((await rejectionOf(orphan)).message).toMatch(/must be a response to a preceeding message with 'tool_calls'/);
    const long = openai.chat.completions.create({
      model: "gpt-4.1-mini",
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: null, tool_calls: [{ ...call, id: "c".repeat(41) }] },
        { role: "tool", tool_call_id: "c".repeat(41), content: "x" },
      ],
    });
    expect(await rejectionOf(long)).toMatchObject({ code: "string_above_max_length" });
  });

  it("should stop the same 40-turn loop once recovery is off: the rejections the loop test recovers are real", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const chat = contextChatCompletions(openai, context, { recoverOverflow: false });
    const failure = (async () => {
      for (let turn = 1; turn <= 40; turn += 1) {
        let completion = await chat.create({
          model: "gpt-4.1-mini",
          tools,
          max_tokens: 1024,
          messages: [{ role: "user", content: questionFor(turn) }],
        });
        while (completion.choices[0]!.finish_reason === "tool_calls") {
          const results = (completion.choices[0]!.message.tool_calls ?? []).map((toolCall) => ({
            role: "tool" as const,
            tool_call_id: toolCall.id,
            content: toolCall.type === "function" ? readFile(toolCall.function.arguments) : "",
          }));
          completion = await chat.create({ model: "gpt-4.1-mini", tools, max_tokens: 1024, messages: results });
        }
      }
    })();
    const error = await rejectionOf(failure);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error.message).toMatch(/maximum context length is 8192 tokens/);
    expect((error as ContextOverflowError).cause).toMatchObject({ status: 400, code: "context_length_exceeded" });
  });
});

describe("the Responses imitation", () => {
  it("should refuse an unknown key, an id with the wrong prefix, an unknown reference and an unpaired output", async () => {
    expect((await rejectionOf(openai.responses.create({ model: "gpt-4.1-mini", input: "Hi", foo: 1 } as never))).message).toMatch(
      /Unknown parameter: 'foo'/,
    );
    const badId = openai.responses.create({
      model: "gpt-4.1-mini",
      input: [
        {
          type: "message",
          role: "assistant",
          id: "item_1",
          content: [{ type: "output_text", text: "x", annotations: [] }],
          status: "completed",
        },
      ],
    });
    expect((await rejectionOf(badId)).message).toMatch(/Expected an ID that begins with 'msg'/);
    const reference = openai.responses.create({ model: "gpt-4.1-mini", input: [{ type: "item_reference", id: "msg_unknown" }] });
    expect(await rejectionOf(reference)).toMatchObject({ status: 404 });
    const orphan = openai.responses.create({
      model: "gpt-4.1-mini",
      input: [{ type: "function_call_output", call_id: "call_1", output: "x" }],
    });
    expect((await rejectionOf(orphan)).message).toMatch(/No tool call found for function call output with call_id call_1/);
  });
});

describe("the Responses imitation's encrypted content", () => {
  it("should take its reasoning back from the model and key that got it, and refuse it from any other", async () => {
    const asked = { input: "Turn 1: read 1 file(s) and tell me what they say.", store: false, reasoning: { effort: "low" as const } };
    const first = await openai.responses.create({ model: "gpt-5-mini", ...asked, include: ["reasoning.encrypted_content"] });
    const reasoning = first.output.filter((item) => item.type === "reasoning");
    expect(reasoning[0]?.encrypted_content).toEqual(expect.any(String));
    const input = [{ type: "message" as const, role: "user" as const, content: "Hi" }, ...reasoning];
    expect((await openai.responses.create({ model: "gpt-5-mini", input, store: false })).status).toBe("completed");
    const otherModel = await rejectionOf(openai.responses.create({ model: "gpt-5", input, store: false }));
    expect(otherModel).toMatchObject({ status: 400, code: "invalid_encrypted_content" });
    expect(otherModel.message).toMatch(/^400 The encrypted content for item rs_\w+ could not be verified\.$/);
    const otherKey = new OpenAI({ baseURL: `${openAIServer.url}/v1`, apiKey: "another-key", maxRetries: 0 });
    expect(await rejectionOf(otherKey.responses.create({ model: "gpt-5-mini", input, store: false }))).toMatchObject({ status: 400 });
    const madeUp = [{ ...reasoning[0]!, encrypted_content: "gAAAABmade-up==" }];
    expect(await rejectionOf(openai.responses.create({ model: "gpt-5-mini", input: madeUp, store: false }))).toMatchObject({ status: 400 });
  });
});

describe("the Messages imitation", () => {
  const model = "claude-sonnet-4-6";

  it("should take a thinking block back from the model that signed it, and refuse it from another or edited", async () => {
    const thinking = { type: "enabled" as const, budget_tokens: 1_024 };
    const question = { role: "user" as const, content: "Turn 1: read 1 file(s) and tell me what they say." };
    const first = await anthropic.messages.create({ model, max_tokens: 2_048, thinking, messages: [question] });
    const results = first.content.flatMap((block) =>
      block.type === "tool_use" ? [{ type: "tool_result" as const, tool_use_id: block.id, content: "a.txt" }] : [],
    );
    const messages = [question, { role: "assistant" as const, content: first.content }, { role: "user" as const, content: results }];
    expect((await anthropic.messages.create({ model, max_tokens: 2_048, thinking, messages })).type).toBe("message");
    const foreign = await rejectionOf(anthropic.messages.create({ model: "claude-opus-4-1", max_tokens: 2_048, thinking, messages }));
    expect(foreign).toBeInstanceOf(Anthropic.BadRequestError);
    expect(foreign.error).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "messages.1.content.0: Invalid `signature` in `thinking` block" },
    });
    const edited = messages.map((message, index) =>
      index === 1
        ? { ...message, content: first.content.map((block) => (block.type === "thinking" ? { ...block, thinking: "Edited." } : block)) }
        : message,
    );
    expect(await rejectionOf(anthropic.messages.create({ model, max_tokens: 2_048, thinking, messages: edited }))).toMatchObject({
      status: 400,
    });
  });

  it("should refuse an unknown key, a leading assistant, roles out of order and a tool_use with no result", async () => {
    const extra = anthropic.messages.create({ model, max_tokens: 10, messages: [{ role: "user", content: "Hi" }], foo: 1 } as never);
    expect(await rejectionOf(extra)).toMatchObject({ status: 400, message: expect.stringMatching(/foo: Extra inputs are not permitted/) });
    const leading = anthropic.messages.create({ model, max_tokens: 10, messages: [{ role: "assistant", content: "Hi" }] });
    expect((await rejectionOf(leading)).message).toMatch(/first message must use the \\?"user\\?" role/);
    const twice = anthropic.messages.create({
      model,
      max_tokens: 10,
      messages: [
        { role: "user", content: "Hi" },
        { role: "user", content: "Again" },
      ],
    });
    expect((await rejectionOf(twice)).message).toMatch(/roles must alternate/);
    const unanswered = anthropic.messages.create({
      model,
      max_tokens: 10,
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read_file", input: {} }] },
        { role: "user", content: "Well?" },
      ],
    });
    expect((await rejectionOf(unanswered)).message).toMatch(
      /`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
    );
  });

  it("should refuse a tool_use id outside its pattern and more than four cache breakpoints", async () => {
    const badId = anthropic.messages.create({
      model,
      max_tokens: 10,
      messages: [
        { role: "user", content: "Hi" },
        { role: "assistant", content: [{ type: "tool_use", id: "call.1", name: "read_file", input: {} }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "call.1", content: "x" }] },
      ],
    });
    expect((await rejectionOf(badId)).message).toMatch(/String should match pattern/);
    const cached = { type: "text" as const, text: "x", cache_control: { type: "ephemeral" as const } };
    const five = anthropic.messages.create({
      model,
      max_tokens: 10,
      system: [cached, cached],
      messages: [{ role: "user", content: [cached, cached, cached] }],
    });
    expect((await rejectionOf(five)).message).toMatch(/A maximum of 4 blocks with cache_control may be provided. Found 5./);
  });

  it("should answer a prompt over the window with Anthropic's 400 and its body", async () => {
    const tooLong = anthropic.messages.create({
      model,
      max_tokens: 10,
      messages: [{ role: "user", content: [readFile('{"path":"a"}'), readFile('{"path":"b"}')].join("\n") }],
    });
    const error = await rejectionOf(tooLong);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.error).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: expect.stringMatching(/^prompt is too long: \d+ tokens > 8192 maximum$/) },
    });
  });
});
