// contextChatCompletions with stream: true, the real OpenAI client over HTTP against the strict imitation: the streamed
// loop stores what the non-streamed one stores, an overflow is retried before the first chunk, and a stream that is
// left, aborted or fails midway leaves the manager as it was before the call.
import { readFileSync } from "node:fs";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { contextChatCompletions } from "@ctxkit/openai";
import OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { withOrdinalIds } from "./ordinal-ids.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const model = "gpt-4.1-mini";
const tools: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "read_file",
      description: READ_FILE_DESCRIPTION,
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  },
];

let server: LoopbackServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startOpenAIImitation();
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
});
afterAll(() => server.close());

function resultsOf(completion: ChatCompletion): ChatCompletionMessageParam[] {
  return (completion.choices[0]!.message.tool_calls ?? []).map((call) => ({
    role: "tool",
    tool_call_id: call.id,
    content: call.type === "function" ? readFile(call.function.arguments) : "unsupported",
  }));
}

/** Turns 1–3 of the scripted model (turn 3 reads two files), each answered through the loop `send`. */
async function runTurns(send: (messages: ChatCompletionMessageParam[]) => Promise<ChatCompletion>): Promise<string[]> {
  const answers: string[] = [];
  for (let turn = 1; turn <= 3; turn += 1) {
    let completion = await send([{ role: "user", content: questionFor(turn) }]);
    while (completion.choices[0]!.finish_reason === "tool_calls") completion = await send(resultsOf(completion));
    answers.push(completion.choices[0]!.message.content ?? "");
  }
  return answers;
}

function history(): Message[] {
  return [
    { role: "user", content: questionFor(1) },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"turn-1-file-0.txt"}' } }],
    },
    { role: "tool", tool_call_id: "call_1", content: readFile('{"path":"turn-1-file-0.txt"}') },
    { role: "assistant", content: "Turn 1: the 1 file(s) list build steps; nothing failed." },
  ];
}

describe("contextChatCompletions with stream: true", () => {
  it("should run the README's streamed tool loop for 12 turns, every accepted request within the window, and be the code the README shows", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const recoveries = countRecoveries(context);
    const before = server.requests.length;
    let shown = "";
    const show = (text: string) => {
      shown += text;
    };
    const runTool = async (call: ChatCompletionMessageToolCall) => (call.type === "function" ? readFile(call.function.arguments) : "");
    // readme-stream:start
    const chat = contextChatCompletions(client, context);
    async function ask(question: string): Promise<string | null> {
      let messages: ChatCompletionMessageParam[] = [{ role: "user", content: question }];
      for (;;) {
        const stream = await chat.create({ model, tools, max_tokens: 1024, stream: true, messages });
        for await (const chunk of stream) show(chunk.choices[0]?.delta.content ?? "");
        const completion = await stream.finalResponse(); // as create returns it, and already in the manager
        const calls = completion.choices[0]!.message.tool_calls ?? [];
        if (calls.length === 0) return completion.choices[0]!.message.content;
        messages = await Promise.all(
          calls.map(async (call) => ({ role: "tool" as const, tool_call_id: call.id, content: await runTool(call) })),
        );
      }
    }
    // readme-stream:end
    const answers: (string | null)[] = [];
    for (let turn = 1; turn <= 12; turn += 1) answers.push(await ask(questionFor(turn)));
    answers.forEach((answer, index) => expect(answer).toMatch(new RegExp(`^Turn ${index + 1}:`)));
    expect(shown).toBe(answers.join(""));
    const requests = server.requests.slice(before);
    const rejected = requests.filter((request) => request.status !== 200);
    expect(recoveries()).toBeGreaterThan(0);
    expect(rejected.length).toBe(recoveries());
    for (const request of requests.filter((request) => request.status === 200))
      expect(request.promptTokens! + 1024).toBeLessThanOrEqual(WINDOW);
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"), "readme-stream");
    expect(readmeHolds(new URL("../../../packages/openai/README.md", import.meta.url), region)).toBe(true);
  });

  it("should store, over a streamed tool loop, the history the non-streamed loop stores, and report each usage", async () => {
    const unstreamed = createSimpleContext({ maxTokens: WINDOW });
    const chat = contextChatCompletions(client, unstreamed);
    await runTurns((messages) => chat.create({ model, tools, max_tokens: 1024, messages }));

    const streamed = createSimpleContext({ maxTokens: WINDOW });
    const reported: unknown[] = [];
    const reportUsage = streamed.reportUsage.bind(streamed);
    streamed.reportUsage = (usage) => (reported.push(usage), reportUsage(usage));
    const streaming = contextChatCompletions(client, streamed);
    const before = server.requests.length;
    let chunks = 0;
    const answers = await runTurns(async (messages) => {
      const stream = await streaming.create({ model, tools, max_tokens: 1024, stream: true, messages });
      for await (const _chunk of stream) chunks += 1;
      return stream.finalResponse();
    });

    expect(answers).toEqual([1, 2, 3].map((turn) => `Turn ${turn}: the ${turn === 3 ? 2 : 1} file(s) list build steps; nothing failed.`));
    expect(withOrdinalIds(await streamed.getMessages())).toEqual(withOrdinalIds(await unstreamed.getMessages()));
    const requests = server.requests.slice(before);
    expect(requests.every((request) => request.body["stream"] === true && request.status === 200)).toBe(true);
    expect(requests.every((request) => (request.body["stream_options"] as { include_usage?: boolean }).include_usage)).toBe(true);
    expect(chunks).toBeGreaterThan(requests.length * 3);
    expect(reported).toEqual(requests.map((request) => expect.objectContaining({ inputTokens: request.promptTokens })));
  });

  it("should retry an overflow on a smaller view before the first chunk reaches the caller", async () => {
    // Everything the manager holds fits its budget, but not the provider's 1.2× count in its window.
    const context = createSimpleContext({ maxTokens: 100_000 });
    const recoveries = countRecoveries(context);
    await context.setMessages([...history(), ...history().slice(1, 3), { role: "assistant", content: "Read twice." }]);
    const before = server.requests.length;
    const stream = await contextChatCompletions(client, context).create({
      model,
      max_tokens: 1024,
      stream: true,
      messages: [{ role: "user", content: questionFor(2) }],
    });
    // Resolved: both requests are made, the rejected one and the accepted one, and nothing was read yet.
    expect(server.requests.slice(before).map((request) => request.status)).toEqual([400, 200]);
    expect(recoveries()).toBe(1);
    const kinds: string[] = [];
    for await (const chunk of stream) kinds.push(chunk.object);
    expect(new Set(kinds)).toEqual(new Set(["chat.completion.chunk"]));
    const stored = await context.getMessages();
    expect(stored.at(-2)).toEqual({ role: "user", content: questionFor(2) });
    expect(stored.at(-1)).toMatchObject({ role: "assistant", tool_calls: [{ function: { arguments: '{"path":"turn-2-file-0.txt"}' } }] });
  });

  it("should leave the manager as it was before the call when the caller breaks out after the first chunk", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const stream = await contextChatCompletions(client, context).create({
      model,
      stream: true,
      messages: [{ role: "user", content: "Turn 4: answer at once." }],
    });
    for await (const chunk of stream) {
      expect(chunk.choices[0]?.delta.role).toBe("assistant");
      break;
    }
    expect(await context.getMessages()).toEqual(history());
    await expect(stream.finalResponse()).rejects.toMatchObject({ code: "CONTEXT_STREAM" });
  });

  it("should leave the manager as it was before the call when the signal aborts midway", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const controller = new AbortController();
    const stream = await contextChatCompletions(client, context).create(
      { model, stream: true, messages: [{ role: "user", content: "Turn 2: read 1 file(s) [stall midway]" }] },
      { signal: controller.signal },
    );
    const read: unknown[] = [];
    const reading = (async () => {
      for await (const chunk of stream) {
        read.push(chunk);
        controller.abort();
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: "AbortError" });
    expect(read.length).toBeGreaterThan(0);
    expect(await context.getMessages()).toEqual(history());
  });

  it("should store nothing from a stream that fails midway, and throw the provider's error", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const stream = await contextChatCompletions(client, context).create({
      model,
      stream: true,
      messages: [{ role: "user", content: "Turn 4: answer at once [fail midway]" }],
    });
    const read: unknown[] = [];
    const reading = (async () => {
      for await (const chunk of stream) read.push(chunk);
    })();
    await expect(reading).rejects.toBeInstanceOf(OpenAI.APIError);
    expect(read.length).toBeGreaterThan(0);
    expect(await context.getMessages()).toEqual(history());
  });
});
