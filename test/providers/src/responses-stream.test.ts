// contextResponses with stream: true, the real OpenAI client over HTTP against the strict imitation: the streamed
// loop (reasoning on) stores what the non-streamed one stores, an overflow is retried before the first event, and a
// stream that is left, aborted or fails midway leaves the manager as it was before the call.
import { readFileSync } from "node:fs";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { contextResponses } from "@ctxkit/openai";
import OpenAI from "openai";
import type { FunctionTool, Response, ResponseFunctionToolCall, ResponseInputItem } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { withOrdinalIds } from "./ordinal-ids.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const tools: FunctionTool[] = [
  {
    type: "function",
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
    strict: true,
  },
];
const params = {
  model: "gpt-5-mini",
  tools,
  store: false,
  max_output_tokens: 1024,
  reasoning: { effort: "low" as const },
  include: ["reasoning.encrypted_content" as const],
};

let server: LoopbackServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startOpenAIImitation();
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
});
afterAll(() => server.close());

function outputsOf(response: Response): ResponseInputItem[] {
  return response.output.flatMap((item) =>
    item.type === "function_call"
      ? [{ type: "function_call_output" as const, call_id: item.call_id, output: readFile(item.arguments) }]
      : [],
  );
}

/** Turns 1–3 of the scripted model (turn 3 reads two files), each answered through the loop `send`. */
async function runTurns(send: (input: string | ResponseInputItem[]) => Promise<Response>): Promise<string[]> {
  const answers: string[] = [];
  for (let turn = 1; turn <= 3; turn += 1) {
    let response = await send(questionFor(turn));
    while (outputsOf(response).length > 0) response = await send(outputsOf(response));
    answers.push(response.output_text.split("\n")[0]!);
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

describe("contextResponses with stream: true", () => {
  it("should run the README's streamed tool loop for 12 turns, every accepted request within the window, and be the code the README shows", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const recoveries = countRecoveries(context);
    const before = server.requests.length;
    let shown = "";
    const show = (text: string) => {
      shown += text;
    };
    const runTool = async (call: ResponseFunctionToolCall) => readFile(call.arguments);
    const responses = contextResponses(client, context);
    // readme-stream:start
    async function send(input: string | ResponseInputItem[]): Promise<Response> {
      const stream = await responses.create({ ...params, stream: true, input });
      for await (const event of stream) if (event.type === "response.output_text.delta") show(event.delta);
      return stream.finalResponse(); // as create returns it, and already in the manager
    }
    async function askStreamed(question: string): Promise<string> {
      let response = await send(question);
      for (;;) {
        const calls = response.output.filter((item) => item.type === "function_call");
        if (calls.length === 0) return response.output_text;
        const outputs = await Promise.all(
          calls.map(async (call) => ({ type: "function_call_output" as const, call_id: call.call_id, output: await runTool(call) })),
        );
        response = await send(outputs);
      }
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
    expect(readmeHolds(new URL("../../../packages/openai/README.md", import.meta.url), region)).toBe(true);
  });

  it("should store, over a streamed tool loop with reasoning, the history the non-streamed loop stores, and report each usage", async () => {
    const unstreamed = createSimpleContext({ maxTokens: WINDOW });
    const responses = contextResponses(client, unstreamed);
    await runTurns((input) => responses.create({ ...params, input }));

    const streamed = createSimpleContext({ maxTokens: WINDOW });
    const reported: unknown[] = [];
    const reportUsage = streamed.reportUsage.bind(streamed);
    streamed.reportUsage = (usage) => (reported.push(usage), reportUsage(usage));
    const streaming = contextResponses(client, streamed);
    const before = server.requests.length;
    const kinds = new Set<string>();
    const answers = await runTurns(async (input) => {
      const stream = await streaming.create({ ...params, stream: true, input });
      for await (const event of stream) kinds.add(event.type);
      return stream.finalResponse();
    });

    expect(answers).toEqual([1, 2, 3].map((turn) => `Turn ${turn}: the ${turn === 3 ? 2 : 1} file(s) list build steps; nothing failed.`));
    const stored = await streamed.getMessages();
    expect(withOrdinalIds(stored)).toEqual(withOrdinalIds(await unstreamed.getMessages()));
    expect(JSON.stringify(stored)).toMatch(/gAAAAB/);
    for (const kind of [
      "response.created",
      "response.output_text.delta",
      "response.function_call_arguments.delta",
      "response.output_item.done",
      "response.completed",
    ])
      expect(kinds).toContain(kind);
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
    const stream = await contextResponses(client, context).create({ ...params, stream: true, input: questionFor(2) });
    // Resolved: both requests are made, the rejected one and the accepted one, and nothing was read yet.
    expect(server.requests.slice(before).map((request) => request.status)).toEqual([400, 200]);
    expect(recoveries()).toBe(1);
    const response = await stream.finalResponse();
    expect(response.output.map((item) => item.type)).toEqual(["reasoning", "function_call"]);
    const stored = await context.getMessages();
    expect(stored.at(-2)).toEqual({ role: "user", content: questionFor(2) });
    expect(stored.at(-1)).toMatchObject({ role: "assistant", tool_calls: [{ function: { arguments: '{"path":"turn-2-file-0.txt"}' } }] });
  });

  it("should leave the manager as it was before the call when the caller breaks out after the first event", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const stream = await contextResponses(client, context).create({ ...params, stream: true, input: "Turn 4: answer at once." });
    for await (const event of stream) {
      expect(event.type).toBe("response.created");
      break;
    }
    expect(await context.getMessages()).toEqual(history());
    await expect(stream.finalResponse()).rejects.toMatchObject({ code: "CONTEXT_STREAM" });
  });

  it("should leave the manager as it was before the call when the signal aborts midway", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const controller = new AbortController();
    const stream = await contextResponses(client, context).create(
      { ...params, stream: true, input: "Turn 2: read 1 file(s) [stall midway]" },
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

  it("should store nothing from a stream that fails midway, and throw a ContextStreamError with the provider's message", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const stream = await contextResponses(client, context).create({
      ...params,
      stream: true,
      input: "Turn 4: answer at once [fail midway]",
    });
    const read: unknown[] = [];
    const reading = (async () => {
      for await (const event of stream) read.push(event);
    })();
    await expect(reading).rejects.toMatchObject({ code: "CONTEXT_STREAM", message: expect.stringMatching(/server had an error/) });
    expect(read.length).toBeGreaterThan(0);
    expect(await context.getMessages()).toEqual(history());
  });
});
