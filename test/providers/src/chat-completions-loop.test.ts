// The @ctxkit/openai README's loop, 40 turns with the real OpenAI client over HTTP against a strict imitation
// whose tokenizer counts 1.2× o200k in an 8,192-token window.
import { readFileSync } from "node:fs";
import { createSimpleContext } from "@ctxkit/context-simple";
import { contextChatCompletions } from "@ctxkit/openai";
import OpenAI from "openai";
import type { ChatCompletionTool } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const TURNS = 40;
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
beforeAll(async () => {
  server = await startOpenAIImitation();
});
afterAll(() => server.close());

async function runTool(call: OpenAI.Chat.Completions.ChatCompletionMessageToolCall): Promise<string> {
  return call.type === "function" ? readFile(call.function.arguments) : "unsupported";
}

describe("the @ctxkit/openai README loop against a strict Chat Completions imitation", () => {
  it("should run 40 turns with no request failing after its recovery, every accepted request within the window", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const recoveries = countRecoveries(context);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
    const model = "gpt-4.1-mini";
    // readme:start
    const chat = contextChatCompletions(client, context);
    async function ask(question: string): Promise<string | null> {
      let completion = await chat.create({ model, tools, max_tokens: 1024, messages: [{ role: "user", content: question }] });
      while (completion.choices[0]!.finish_reason === "tool_calls") {
        const calls = completion.choices[0]!.message.tool_calls ?? [];
        const results = await Promise.all(
          calls.map(async (call) => ({ role: "tool" as const, tool_call_id: call.id, content: await runTool(call) })),
        );
        completion = await chat.create({ model, tools, max_tokens: 1024, messages: results });
      }
      return completion.choices[0]!.message.content;
    }
    // readme:end
    for (let turn = 1; turn <= TURNS; turn += 1) expect(await ask(questionFor(turn))).toMatch(new RegExp(`^Turn ${turn}:`));
    const accepted = server.requests.filter((request) => request.status === 200);
    const rejected = server.requests.filter((request) => request.status !== 200);
    expect(recoveries()).toBeGreaterThan(0);
    // Every rejection was a context-length one, each recovered by the retry right after it.
    for (const request of rejected) expect(request.promptTokens).toBeGreaterThan(WINDOW - 1024);
    expect(rejected.length).toBe(recoveries());
    for (const request of accepted) expect(request.promptTokens! + 1024).toBeLessThanOrEqual(WINDOW);
    expect(accepted.length).toBeGreaterThanOrEqual(TURNS * 2);
    // The history holds everything; the views were compacted.
    expect((await context.getMessages()).filter((message) => message.role === "tool")).toHaveLength(accepted.length - TURNS);
  });

  it("should be the loop the README shows", () => {
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"));
    expect(readmeHolds(new URL("../../../packages/openai/README.md", import.meta.url), region)).toBe(true);
  });
});
