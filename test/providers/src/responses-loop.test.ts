// The @ctxkit/openai README's Responses loop, 40 turns with the real OpenAI client over HTTP against a strict imitation
// whose tokenizer counts 1.2× o200k in an 8,192-token window, reasoning on and its encrypted content kept.
import { readFileSync } from "node:fs";
import { createSimpleContext } from "@ctxkit/context-simple";
import { contextResponses } from "@ctxkit/openai";
import OpenAI from "openai";
import type { FunctionTool, ResponseFunctionToolCall } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const TURNS = 40;
const tools: FunctionTool[] = [
  {
    type: "function",
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"], additionalProperties: false },
    strict: true,
  },
];

let server: LoopbackServer;
beforeAll(async () => {
  server = await startOpenAIImitation();
});
afterAll(() => server.close());

async function runTool(call: ResponseFunctionToolCall): Promise<string> {
  return readFile(call.arguments);
}

describe("the @ctxkit/openai README's Responses loop against a strict Responses imitation", () => {
  it("should run 40 turns with no request failing after its recovery, every accepted request within the window", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const recoveries = countRecoveries(context);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
    const model = "gpt-5-mini";
    // readme:start
    const responses = contextResponses(client, context);
    const params = {
      model,
      tools,
      max_output_tokens: 1024,
      reasoning: { effort: "low" as const },
      store: false,
      include: ["reasoning.encrypted_content" as const],
    };
    async function ask(question: string): Promise<string> {
      let response = await responses.create({ ...params, input: question });
      for (;;) {
        const calls = response.output.filter((item) => item.type === "function_call");
        if (calls.length === 0) return response.output_text;
        const outputs = await Promise.all(
          calls.map(async (call) => ({ type: "function_call_output" as const, call_id: call.call_id, output: await runTool(call) })),
        );
        response = await responses.create({ ...params, input: outputs });
      }
    }
    // readme:end
    for (let turn = 1; turn <= TURNS; turn += 1) expect(await ask(questionFor(turn))).toMatch(new RegExp(`^Turn ${turn}:`));
    const accepted = server.requests.filter((request) => request.status === 200);
    const rejected = server.requests.filter((request) => request.status !== 200);
    expect(recoveries()).toBeGreaterThan(0);
    // Every rejection was a context-length one, each recovered by the retry right after it.
    for (const request of rejected) expect(JSON.stringify(request.response)).toMatch(/context_length_exceeded/);
    expect(rejected.length).toBe(recoveries());
    for (const request of accepted) expect(request.promptTokens! + 1024).toBeLessThanOrEqual(WINDOW);
    expect(accepted.length).toBeGreaterThanOrEqual(TURNS * 2);
    // The view goes inline, never by reference, and the history holds every result.
    expect(accepted.every((request) => !JSON.stringify(request.body["input"]).includes("item_reference"))).toBe(true);
    expect(accepted.some((request) => JSON.stringify(request.body["input"]).includes('"type":"reasoning"'))).toBe(true);
    expect((await context.getMessages()).filter((message) => message.role === "tool")).toHaveLength(accepted.length - TURNS);
  });

  it("should be the loop the README shows", () => {
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"));
    expect(readmeHolds(new URL("../../../packages/openai/README.md", import.meta.url), region)).toBe(true);
  });
});
