// The AI SDK middleware with the real @ai-sdk/openai Responses provider (default store: true) over HTTP, 40 turns
// against a strict Responses imitation that keeps output items and resolves item_reference inputs to them.
import { readFileSync } from "node:fs";
import { createOpenAI } from "@ai-sdk/openai";
import { contextMiddleware } from "@ctxkit/ai-sdk";
import { createSimpleContext } from "@ctxkit/context-simple";
import { generateText, jsonSchema, stepCountIs, streamText, tool, wrapLanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const TURNS = 40;
// The README's maxOutputTokens: more than the manager keeps free beside its views, so some are rejected as too long, and recovered.
const MAX_OUTPUT = 2_560;
const TRIM_MARKER = /\[… \d+ characters trimmed …\]/;

let server: LoopbackServer;
beforeAll(async () => {
  server = await startOpenAIImitation();
});
afterAll(() => server.close());

const tools = {
  read_file: tool({
    description: READ_FILE_DESCRIPTION,
    inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
    execute: async ({ path }) => readFile(JSON.stringify({ path })),
  }),
};

type InputItem = { type?: string; role?: string; id?: string; content?: unknown };

describe("contextMiddleware over the AI SDK's OpenAI Responses provider", () => {
  it("should send what ctxkit shortened as content, never as an item_reference, for 40 turns within the window", async () => {
    // Long texts are trimmed early, so the model's own long answers get shortened in later views.
    const context = createSimpleContext({
      maxTokens: WINDOW,
      strategies: ["clear-tool-results", { name: "trim-long-text", options: { maxChars: 4_000 } }, "truncate"],
    });
    const recoveries = countRecoveries(context);
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test" });
    // readme:start
    const model = wrapLanguageModel({ model: openai.responses("gpt-4.1-mini"), middleware: contextMiddleware(context) });
    async function ask(question: string): Promise<string> {
      const { text } = await generateText({ model, tools, prompt: question, stopWhen: stepCountIs(5), maxOutputTokens: 2_560 });
      return text;
    }
    // readme:end
    for (let turn = 1; turn <= TURNS; turn += 1) expect(await ask(questionFor(turn))).toMatch(new RegExp(`^Turn ${turn}:`));
    const accepted = server.requests.filter((request) => request.path === "/v1/responses" && request.status === 200);
    const rejected = server.requests.filter((request) => request.status !== 200);
    for (const request of accepted) expect(request.promptTokens! + MAX_OUTPUT).toBeLessThanOrEqual(WINDOW);
    expect(recoveries()).toBeGreaterThan(0);
    expect(rejected.length).toBe(recoveries());
    const inputs = accepted.map((request) => request.body["input"] as InputItem[]);
    // The store path is exercised: untouched answers still go by reference...
    expect(inputs.flat().some((item) => item.type === "item_reference")).toBe(true);
    // ...and trimmed ones reach the server as their trimmed text, inline.
    const inlineTrimmed = inputs.flat().filter((item) => item.role === "assistant" && TRIM_MARKER.test(JSON.stringify(item.content)));
    expect(inlineTrimmed.length).toBeGreaterThan(0);
    for (const item of inlineTrimmed) expect(item.id).toBeUndefined();
  });

  it("should run the README's streamText loop for 12 turns within the window, and be the code the README shows", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    const recoveries = countRecoveries(context);
    const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test" });
    const model = wrapLanguageModel({ model: openai.responses("gpt-4.1-mini"), middleware: contextMiddleware(context) });
    const before = server.requests.length;
    let shown = "";
    const show = (text: string) => {
      shown += text;
    };
    // readme-stream:start
    async function askStreamed(question: string): Promise<string> {
      const result = streamText({ model, tools, prompt: question, stopWhen: stepCountIs(5), maxOutputTokens: 2_560 });
      for await (const text of result.textStream) show(text);
      return result.text;
    }
    // readme-stream:end
    const answers: string[] = [];
    for (let turn = 1; turn <= 12; turn += 1) answers.push(await askStreamed(questionFor(turn)));
    answers.forEach((answer, index) => expect(answer).toMatch(new RegExp(`^Turn ${index + 1}:`)));
    expect(shown).toBe(answers.join(""));
    const requests = server.requests.slice(before).filter((request) => request.path === "/v1/responses");
    expect(requests.every((request) => request.body["stream"] === true)).toBe(true);
    expect(requests.filter((request) => request.status !== 200).length).toBe(recoveries());
    for (const request of requests.filter((request) => request.status === 200))
      expect(request.promptTokens! + MAX_OUTPUT).toBeLessThanOrEqual(WINDOW);
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"), "readme-stream");
    expect(readmeHolds(new URL("../../../packages/ai-sdk/README.md", import.meta.url), region)).toBe(true);
  });

  it("should be the loop the README shows", () => {
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"));
    expect(readmeHolds(new URL("../../../packages/ai-sdk/README.md", import.meta.url), region)).toBe(true);
  });
});
