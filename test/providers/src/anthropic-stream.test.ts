// contextMessages with stream: true, the real Anthropic client over HTTP against the strict imitation: the streamed
// loop (thinking on) stores what the non-streamed one stores, an overflow is retried before the first event, and a
// stream that is left, aborted or fails midway leaves the manager as it was before the call.
import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import type { Message as AnthropicResponse, MessageParam, Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { contextMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { withOrdinalIds } from "./ordinal-ids.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const model = "claude-sonnet-4-6";
const thinking = { type: "enabled", budget_tokens: 1_024 } as const;
const tools: Tool[] = [
  {
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

let server: LoopbackServer;
let client: Anthropic;
beforeAll(async () => {
  server = await startAnthropicImitation();
  client = new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 });
});
afterAll(() => server.close());

function resultsOf(response: AnthropicResponse): MessageParam[] {
  const calls = response.content.filter((block) => block.type === "tool_use");
  return [
    {
      role: "user",
      content: calls.map((call) => ({ type: "tool_result" as const, tool_use_id: call.id, content: readFile(JSON.stringify(call.input)) })),
    },
  ];
}

/** Turns 1–3 of the scripted model (turn 3 reads two files), each answered through the loop `send`. */
async function runTurns(send: (messages: MessageParam[]) => Promise<AnthropicResponse>): Promise<string[]> {
  const answers: string[] = [];
  for (let turn = 1; turn <= 3; turn += 1) {
    let response = await send([{ role: "user", content: questionFor(turn) }]);
    while (response.stop_reason === "tool_use") response = await send(resultsOf(response));
    answers.push(response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join(""));
  }
  return answers;
}

function history(): Message[] {
  return [
    { role: "user", content: questionFor(1) },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "toolu_1", type: "function", function: { name: "read_file", arguments: '{"path":"turn-1-file-0.txt"}' } }],
    },
    { role: "tool", tool_call_id: "toolu_1", content: readFile('{"path":"turn-1-file-0.txt"}') },
    { role: "assistant", content: "Turn 1: the 1 file(s) list build steps; nothing failed." },
  ];
}

describe("contextMessages with stream: true", () => {
  it("should run the README's streamed tool loop for 12 turns, every accepted request within the window, and be the code the README shows", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const recoveries = countRecoveries(context);
    const before = server.requests.length;
    let shown = "";
    const show = (text: string) => {
      shown += text;
    };
    const runTool = async (call: Anthropic.ToolUseBlock) => readFile(JSON.stringify(call.input));
    // readme-stream:start
    const claude = contextMessages(client, context);
    async function send(messages: MessageParam[]): Promise<Anthropic.Message> {
      const stream = await claude.create({ model, tools, max_tokens: 1024, stream: true, messages });
      for await (const event of stream)
        if (event.type === "content_block_delta" && event.delta.type === "text_delta") show(event.delta.text);
      return stream.finalResponse(); // as create returns it, and already in the manager
    }
    async function askStreamed(question: string): Promise<string> {
      let response = await send([{ role: "user", content: question }]);
      while (response.stop_reason === "tool_use") {
        const calls = response.content.filter((block) => block.type === "tool_use");
        const results: ToolResultBlockParam[] = await Promise.all(
          calls.map(async (call) => ({ type: "tool_result" as const, tool_use_id: call.id, content: await runTool(call) })),
        );
        response = await send([{ role: "user", content: results }]);
      }
      return response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    }
    // readme-stream:end
    const answers: string[] = [];
    for (let turn = 1; turn <= 12; turn += 1) answers.push(await askStreamed(questionFor(turn)));
    answers.forEach((answer, index) => expect(answer).toMatch(new RegExp(`^Turn ${index + 1}:`)));
    expect(shown).toBe(answers.join(""));
    const requests = server.requests.slice(before);
    const rejected = requests.filter((request) => request.status !== 200);
    expect(recoveries()).toBeGreaterThan(0);
    expect(rejected.length).toBe(recoveries());
    for (const request of requests.filter((request) => request.status === 200))
      expect(request.promptTokens! + 1024).toBeLessThanOrEqual(WINDOW);
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"), "readme-stream");
    expect(readmeHolds(new URL("../../../packages/anthropic/README.md", import.meta.url), region)).toBe(true);
  });

  it("should store, over a streamed tool loop with thinking, the history the non-streamed loop stores, and report each usage", async () => {
    const unstreamed = createSimpleContext({ maxTokens: WINDOW });
    const claude = contextMessages(client, unstreamed);
    await runTurns((messages) => claude.create({ model, tools, thinking, max_tokens: 2_048, messages }));

    const streamed = createSimpleContext({ maxTokens: WINDOW });
    const reported: unknown[] = [];
    const reportUsage = streamed.reportUsage.bind(streamed);
    streamed.reportUsage = (usage) => (reported.push(usage), reportUsage(usage));
    const streaming = contextMessages(client, streamed);
    const before = server.requests.length;
    const kinds = new Set<string>();
    const answers = await runTurns(async (messages) => {
      const stream = await streaming.create({ model, tools, thinking, max_tokens: 2_048, stream: true, messages });
      for await (const event of stream) kinds.add(event.type === "content_block_delta" ? event.delta.type : event.type);
      return stream.finalResponse();
    });

    expect(answers).toEqual([1, 2, 3].map((turn) => `Turn ${turn}: the ${turn === 3 ? 2 : 1} file(s) list build steps; nothing failed.`));
    const stored = await streamed.getMessages();
    expect(withOrdinalIds(stored)).toEqual(withOrdinalIds(await unstreamed.getMessages()));
    expect(JSON.stringify(stored)).toMatch(/🤔/);
    expect(kinds).toEqual(
      new Set([
        "message_start",
        "content_block_start",
        "thinking_delta",
        "signature_delta",
        "input_json_delta",
        "text_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
      ]),
    );
    const requests = server.requests.slice(before).filter((request) => request.status === 200);
    expect(requests.every((request) => request.body["stream"] === true)).toBe(true);
    expect(reported).toEqual(requests.map((request) => expect.objectContaining({ inputTokens: request.promptTokens })));
  });

  it("should retry an overflow on a smaller view before the first event reaches the caller", async () => {
    // Everything the manager holds fits its budget, but not the provider's 1.2× count in its window.
    const context = createSimpleContext({ maxTokens: 100_000 });
    const recoveries = countRecoveries(context);
    await context.setMessages([...history(), ...history().slice(1, 3), { role: "assistant", content: "Read twice." }]);
    const before = server.requests.length;
    const stream = await contextMessages(client, context).create({
      model,
      max_tokens: 1_024,
      stream: true,
      messages: [{ role: "user", content: questionFor(2) }],
    });
    // Resolved: both requests are made, the rejected one and the accepted one, and nothing was read yet.
    expect(server.requests.slice(before).map((request) => request.status)).toEqual([400, 200]);
    expect(recoveries()).toBe(1);
    const answer = await stream.finalResponse();
    expect(answer.stop_reason).toBe("tool_use");
    const stored = await context.getMessages();
    expect(stored.at(-2)).toEqual({ role: "user", content: questionFor(2) });
    expect(stored.at(-1)).toMatchObject({ role: "assistant", tool_calls: [{ function: { arguments: '{"path":"turn-2-file-0.txt"}' } }] });
  });

  it("should leave the manager as it was before the call when the caller breaks out after the first event", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const stream = await contextMessages(client, context).create({
      model,
      max_tokens: 1_024,
      stream: true,
      messages: [{ role: "user", content: "Turn 4: answer at once." }],
    });
    for await (const event of stream) {
      expect(event.type).toBe("message_start");
      break;
    }
    expect(await context.getMessages()).toEqual(history());
    await expect(stream.finalResponse()).rejects.toMatchObject({ code: "CONTEXT_STREAM" });
  });

  it("should leave the manager as it was before the call when the signal aborts midway", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const controller = new AbortController();
    const stream = await contextMessages(client, context).create(
      { model, max_tokens: 1_024, stream: true, messages: [{ role: "user", content: "Turn 2: read 1 file(s) [stall midway]" }] },
      { signal: controller.signal },
    );
    const read: unknown[] = [];
    const reading = (async () => {
      for await (const event of stream) {
        read.push(event);
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
    const stream = await contextMessages(client, context).create({
      model,
      max_tokens: 1_024,
      stream: true,
      messages: [{ role: "user", content: "Turn 4: answer at once [fail midway]" }],
    });
    const read: unknown[] = [];
    const reading = (async () => {
      for await (const event of stream) read.push(event);
    })();
    await expect(reading).rejects.toBeInstanceOf(Anthropic.APIError);
    expect(read.length).toBeGreaterThan(0);
    expect(await context.getMessages()).toEqual(history());
  });
});
