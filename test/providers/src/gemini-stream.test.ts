// contextModels' generateContentStream, the real Google Gen AI client over HTTP against the strict imitation: the
// streamed loop (thoughts on) stores what the non-streamed one stores, an overflow is retried before the first
// chunk, and a stream that is left, aborted or fails midway leaves the manager as it was before the call.
import { readFileSync } from "node:fs";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { contextModels } from "@ctxkit/google";
import {
  ApiError,
  createPartFromFunctionResponse,
  GoogleGenAI,
  type Content,
  type FunctionCall,
  type FunctionDeclaration,
  type GenerateContentResponse,
  type Part,
} from "@google/genai";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startGeminiImitation } from "./gemini-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const model = "gemini-2.5-flash";
const config = { thinkingConfig: { includeThoughts: true } };
const INPUT_LIMIT = WINDOW - 1_024;
const functionDeclarations: FunctionDeclaration[] = [
  {
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    parametersJsonSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

let server: LoopbackServer;
let ai: GoogleGenAI;
beforeAll(async () => {
  server = await startGeminiImitation();
  ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
});
afterAll(() => server.close());

function resultsOf(response: GenerateContentResponse): Content[] {
  const parts = (response.functionCalls ?? []).map((call) =>
    createPartFromFunctionResponse(call.id ?? "", call.name ?? "", { output: readFile(JSON.stringify(call.args)) }),
  );
  return [{ role: "user", parts }];
}

/** Turns 1–3 of the scripted model (turn 3 reads two files), each answered through the loop `send`. */
async function runTurns(send: (contents: Content[]) => Promise<GenerateContentResponse>): Promise<string[]> {
  const answers: string[] = [];
  for (let turn = 1; turn <= 3; turn += 1) {
    let response = await send([{ role: "user", parts: [{ text: questionFor(turn) }] }]);
    while ((response.functionCalls?.length ?? 0) > 0) response = await send(resultsOf(response));
    answers.push(response.text ?? "");
  }
  return answers;
}

/** The imitation signs each answer afresh: two runs of the same loop differ in their signatures alone. */
const withoutSignatures = (messages: readonly Message[]) =>
  JSON.parse(JSON.stringify(messages).replaceAll(/"thoughtSignature":"[^"]*"/g, '"thoughtSignature":"…"')) as unknown;

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

const ask = (text: string): Content[] => [{ role: "user", parts: [{ text }] }];

describe("contextModels' generateContentStream", () => {
  it("should run the README's streamed tool loop for 12 turns, every accepted request within the input limit, and be the code the README shows", async () => {
    // The non-streamed loop's setting: the manager given the whole window, the model taking 1,024 tokens less.
    const limited = await startGeminiImitation({ ratio: 1.2, window: INPUT_LIMIT });
    onTestFinished(() => limited.close());
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const recoveries = countRecoveries(context);
    const gemini = contextModels(new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: limited.url } }), context);
    let shown = "";
    const show = (text: string) => {
      shown += text;
    };
    const runTool = async (call: FunctionCall) => readFile(JSON.stringify(call.args));
    // readme-stream:start
    async function send(contents: Content[]): Promise<GenerateContentResponse> {
      const stream = await gemini.generateContentStream({ model, config: { tools: [{ functionDeclarations }] }, contents });
      for await (const chunk of stream)
        for (const part of chunk.candidates?.[0]?.content?.parts ?? [])
          if (part.text !== undefined && part.thought !== true) show(part.text);
      return stream.finalResponse(); // as generateContent returns it, and already in the manager
    }
    async function askStreamed(question: string): Promise<string> {
      let response = await send([{ role: "user", parts: [{ text: question }] }]);
      while (response.functionCalls !== undefined && response.functionCalls.length > 0) {
        const parts: Part[] = await Promise.all(
          response.functionCalls.map(async (call) =>
            createPartFromFunctionResponse(call.id ?? "", call.name ?? "", { output: await runTool(call) }),
          ),
        );
        response = await send([{ role: "user", parts }]);
      }
      return response.text ?? "";
    }
    // readme-stream:end
    const answers: string[] = [];
    for (let turn = 1; turn <= 12; turn += 1) answers.push(await askStreamed(questionFor(turn)));
    answers.forEach((answer, index) => expect(answer).toMatch(new RegExp(`^Turn ${index + 1}:`)));
    expect(shown).toBe(answers.join(""));
    const rejected = limited.requests.filter((request) => request.status !== 200);
    expect(recoveries()).toBeGreaterThan(0);
    expect(rejected.length).toBe(recoveries());
    for (const request of rejected) expect(request.promptTokens!).toBeGreaterThan(INPUT_LIMIT);
    for (const request of limited.requests.filter((request) => request.status === 200))
      expect(request.promptTokens!).toBeLessThanOrEqual(INPUT_LIMIT);
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"), "readme-stream");
    expect(readmeHolds(new URL("../../../packages/google/README.md", import.meta.url), region)).toBe(true);
  });

  it("should store, over a streamed tool loop with thoughts, the history the non-streamed loop stores, and report each usage", async () => {
    const unstreamed = createSimpleContext({ maxTokens: WINDOW });
    const gemini = contextModels(ai, unstreamed);
    await runTurns((contents) => gemini.generateContent({ model, config, contents }));

    const streamed = createSimpleContext({ maxTokens: WINDOW });
    const reported: unknown[] = [];
    const reportUsage = streamed.reportUsage.bind(streamed);
    streamed.reportUsage = (usage) => (reported.push(usage), reportUsage(usage));
    const streaming = contextModels(ai, streamed);
    const before = server.requests.length;
    let chunks = 0;
    const answers = await runTurns(async (contents) => {
      const stream = await streaming.generateContentStream({ model, config, contents });
      for await (const _chunk of stream) chunks += 1;
      return stream.finalResponse();
    });

    expect(answers).toEqual([1, 2, 3].map((turn) => `Turn ${turn}: the ${turn === 3 ? 2 : 1} file(s) list build steps; nothing failed.`));
    const stored = await streamed.getMessages();
    expect(withoutSignatures(stored)).toEqual(withoutSignatures(await unstreamed.getMessages()));
    // Thoughts and signatures went back each turn, or the imitation would have refused the next request.
    expect(JSON.stringify(stored)).toMatch(/🤔/);
    expect(stored.filter((message) => JSON.stringify(message).includes("gemini_thought_signature"))).toHaveLength(7);
    const requests = server.requests.slice(before).filter((request) => request.status === 200);
    expect(chunks).toBeGreaterThan(requests.length * 2);
    expect(requests.every((request) => request.path.includes(":streamGenerateContent?alt=sse"))).toBe(true);
    expect(reported).toEqual(requests.map((request) => expect.objectContaining({ inputTokens: request.promptTokens })));
  });

  it("should retry an overflow on a smaller view before the first chunk reaches the caller", async () => {
    // Everything the manager holds fits its budget, but not the provider's 1.2× count within its input limit.
    const context = createSimpleContext({ maxTokens: 100_000 });
    const recoveries = countRecoveries(context);
    await context.setMessages([...history(), ...history().slice(1, 3), { role: "assistant", content: "Read twice." }]);
    const before = server.requests.length;
    const stream = await contextModels(ai, context).generateContentStream({ model, contents: ask(questionFor(2)) });
    // Resolved: both requests are made, the rejected one and the accepted one, and nothing was read yet.
    expect(server.requests.slice(before).map((request) => request.status)).toEqual([400, 200]);
    expect(recoveries()).toBe(1);
    const answer = await stream.finalResponse();
    expect(answer.functionCalls).toHaveLength(1);
    const stored = await context.getMessages();
    expect(stored.at(-2)).toEqual({ role: "user", content: questionFor(2) });
    expect(stored.at(-1)).toMatchObject({ role: "assistant", tool_calls: [{ function: { arguments: '{"path":"turn-2-file-0.txt"}' } }] });
  });

  it("should leave the manager as it was before the call when the caller breaks out after the first chunk", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const stream = await contextModels(ai, context).generateContentStream({ model, config, contents: ask("Turn 4: answer at once.") });
    for await (const chunk of stream) {
      expect(chunk.candidates?.[0]?.finishReason).toBeUndefined();
      break;
    }
    expect(await context.getMessages()).toEqual(history());
    await expect(stream.finalResponse()).rejects.toMatchObject({ code: "CONTEXT_STREAM" });
  });

  it("should leave the manager as it was before the call when config.abortSignal aborts midway", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const controller = new AbortController();
    const stream = await contextModels(ai, context).generateContentStream({
      model,
      config: { ...config, abortSignal: controller.signal },
      contents: ask("Turn 2: read 1 file(s) [stall midway]"),
    });
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

  it("should store nothing from a stream that fails midway, and throw the API's error", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    await context.setMessages(history());
    const stream = await contextModels(ai, context).generateContentStream({
      model,
      config,
      contents: ask("Turn 4: answer at once [fail midway]"),
    });
    const read: unknown[] = [];
    const reading = (async () => {
      for await (const chunk of stream) read.push(chunk);
    })();
    await expect(reading).rejects.toBeInstanceOf(ApiError);
    await expect(reading).rejects.toMatchObject({ status: 500 });
    expect(read.length).toBeGreaterThan(0);
    expect(await context.getMessages()).toEqual(history());
  });
});
