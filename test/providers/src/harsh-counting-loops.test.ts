// Every loop wrapper, with the real SDK clients over HTTP, through a long tool-heavy session against imitations that
// count far more than the manager's tokenizer: 1.2× in a 5,000-token window, 1.5× in 6,000, 2.0× in 8,192.
// No request may die (each rejection is recovered by the retry right after it) and no view may split a pair
// (the strict imitations would refuse it with an error that is not a context-length one).
import Anthropic from "@anthropic-ai/sdk";
import type { Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { createOpenAI } from "@ai-sdk/openai";
import { contextMiddleware } from "@ctxkit/ai-sdk";
import { contextMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { ContextManager } from "@ctxkit/core";
import { contextModels } from "@ctxkit/google";
import { contextChatCompletions, contextResponses } from "@ctxkit/openai";
import { createPartFromFunctionResponse, GoogleGenAI, type FunctionDeclaration } from "@google/genai";
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from "ai";
import OpenAI from "openai";
import type { ChatCompletionTool } from "openai/resources/chat/completions";
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import { afterEach, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import { startGeminiImitation } from "./gemini-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { FILLS_THE_WINDOW, type ProviderCounting } from "./provider-tokens.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

// 27 turns of one or two reads each: 65 requests that succeed, and the rejections recovered among them.
const TURNS = 27;
const MIN_REQUESTS = 60;
const MAX_OUTPUT = 1_024;
const SETTINGS: readonly ProviderCounting[] = [
  { ratio: 1.2, window: 5_000 },
  { ratio: 1.5, window: 6_000 },
  { ratio: 2.0, window: 8_192 },
];
const MODEL = "gpt-4.1-mini";

/**
 * Small results mostly, so the sessions stay cheap; the second read of each two-file turn is the whole file
 * (15–40k characters), so the current turn alone passes the window until its long text is cut to the
 * last resort's 2,000 characters.
 */
function toolResult(argumentsJson: string): string {
  const text = readFile(argumentsJson);
  return argumentsJson.includes("-file-1.") ? text : text.slice(0, 1_500);
}

type Ask = (question: string) => Promise<string>;
type Wrapper = {
  name: string;
  start: (counting: ProviderCounting) => Promise<LoopbackServer>;
  ask: (url: string, context: ContextManager) => Ask;
};

const chatTools: ChatCompletionTool[] = [
  {
    type: "function",
    function: {
      name: "read_file",
      description: READ_FILE_DESCRIPTION,
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  },
];
const responseTools: FunctionTool[] = [
  {
    type: "function",
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
    strict: true,
  },
];
const anthropicTools: Tool[] = [
  {
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];
const functionDeclarations: FunctionDeclaration[] = [
  {
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    parametersJsonSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];
const sdkTools = {
  read_file: tool({
    description: READ_FILE_DESCRIPTION,
    inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
    execute: async ({ path }) => toolResult(JSON.stringify({ path })),
  }),
};

const WRAPPERS: readonly Wrapper[] = [
  {
    name: "contextChatCompletions",
    start: startOpenAIImitation,
    ask: (url, context) => {
      const chat = contextChatCompletions(new OpenAI({ baseURL: `${url}/v1`, apiKey: "test", maxRetries: 0 }), context);
      const params = { model: MODEL, tools: chatTools, max_tokens: MAX_OUTPUT };
      return async (question) => {
        let completion = await chat.create({ ...params, messages: [{ role: "user", content: question }] });
        while (completion.choices[0]!.finish_reason === "tool_calls") {
          const calls = completion.choices[0]!.message.tool_calls ?? [];
          const results = calls.map((call) => ({
            role: "tool" as const,
            tool_call_id: call.id,
            content: call.type === "function" ? toolResult(call.function.arguments) : "unsupported",
          }));
          completion = await chat.create({ ...params, messages: results });
        }
        return completion.choices[0]!.message.content ?? "";
      };
    },
  },
  {
    name: "contextResponses",
    start: startOpenAIImitation,
    ask: (url, context) => {
      const responses = contextResponses(new OpenAI({ baseURL: `${url}/v1`, apiKey: "test", maxRetries: 0 }), context);
      const params = { model: MODEL, tools: responseTools, store: false, max_output_tokens: MAX_OUTPUT };
      return async (question) => {
        let response = await responses.create({ ...params, input: question });
        for (;;) {
          const calls = response.output.filter((item) => item.type === "function_call");
          if (calls.length === 0) return response.output_text;
          const outputs: ResponseInputItem[] = calls.map((call) => ({
            type: "function_call_output",
            call_id: call.call_id,
            output: toolResult(call.arguments),
          }));
          response = await responses.create({ ...params, input: outputs });
        }
      };
    },
  },
  {
    name: "contextMessages",
    start: startAnthropicImitation,
    ask: (url, context) => {
      const claude = contextMessages(new Anthropic({ baseURL: url, apiKey: "test", maxRetries: 0 }), context);
      const params = { model: "claude-sonnet-4-6", tools: anthropicTools, max_tokens: MAX_OUTPUT };
      return async (question) => {
        let response = await claude.create({ ...params, messages: [{ role: "user", content: question }] });
        while (response.stop_reason === "tool_use") {
          const results: ToolResultBlockParam[] = response.content
            .filter((block) => block.type === "tool_use")
            .map((call) => ({ type: "tool_result", tool_use_id: call.id, content: toolResult(JSON.stringify(call.input)) }));
          response = await claude.create({ ...params, messages: [{ role: "user", content: results }] });
        }
        return response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
      };
    },
  },
  {
    name: "contextModels",
    start: startGeminiImitation,
    ask: (url, context) => {
      const gemini = contextModels(new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: url } }), context);
      const params = { model: "gemini-2.5-flash", config: { tools: [{ functionDeclarations }], maxOutputTokens: MAX_OUTPUT } };
      return async (question) => {
        let response = await gemini.generateContent({ ...params, contents: [{ role: "user", parts: [{ text: question }] }] });
        while ((response.functionCalls?.length ?? 0) > 0) {
          const parts = response.functionCalls!.map((call) =>
            createPartFromFunctionResponse(call.id ?? "", call.name ?? "", { output: toolResult(JSON.stringify(call.args)) }),
          );
          response = await gemini.generateContent({ ...params, contents: [{ role: "user", parts }] });
        }
        return response.text ?? "";
      };
    },
  },
  {
    name: "contextMiddleware",
    start: startOpenAIImitation,
    ask: (url, context) => {
      const openai = createOpenAI({ baseURL: `${url}/v1`, apiKey: "test" });
      const model = wrapLanguageModel({ model: openai.chat(MODEL), middleware: contextMiddleware(context) });
      return async (question) => {
        const { text } = await generateText({
          model,
          tools: sdkTools,
          prompt: question,
          stopWhen: stepCountIs(5),
          maxOutputTokens: MAX_OUTPUT,
          maxRetries: 0,
        });
        return text;
      };
    },
  },
];

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("the loop wrappers against a provider that counts far more than the manager", () => {
  for (const wrapper of WRAPPERS)
    for (const counting of SETTINGS)
      it(`should keep ${wrapper.name} serving ${MIN_REQUESTS}+ requests at ${counting.ratio}× in a ${counting.window}-token window`, async () => {
        server = await wrapper.start(counting);
        // Told the window only, as the README loops are: the provider's count and its output reserve are what it learns.
        const context = createSimpleContext({ ...FILLS_THE_WINDOW, maxTokens: counting.window });
        const recoveries = countRecoveries(context);
        const ask = wrapper.ask(server.url, context);
        for (let turn = 1; turn <= TURNS; turn += 1) expect(await ask(questionFor(turn))).toMatch(new RegExp(`^Turn ${turn}:`));
        const accepted = server.requests.filter((request) => request.status === 200);
        const rejected = server.requests.filter((request) => request.status !== 200);
        expect(accepted.length).toBeGreaterThanOrEqual(MIN_REQUESTS);
        // Every rejection was a context-length one, and the retry right after it was accepted.
        for (const request of rejected) expect(request.promptTokens! + MAX_OUTPUT).toBeGreaterThan(counting.window);
        expect(rejected.length).toBe(recoveries());
        for (const [index, request] of server.requests.entries())
          if (request.status !== 200) expect(server.requests[index + 1]?.status).toBe(200);
      });
});
