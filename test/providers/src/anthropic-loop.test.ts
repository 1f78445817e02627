// The @ctxkit/anthropic README's loop, 40 turns with the real Anthropic client over HTTP against a strict imitation
// whose tokenizer counts 1.2× o200k in an 8,192-token window.
import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import type { Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { contextMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const TURNS = 40;
const tools: Tool[] = [
  {
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

let server: LoopbackServer;
beforeAll(async () => {
  server = await startAnthropicImitation();
});
afterAll(() => server.close());

async function runTool(call: Anthropic.ToolUseBlock): Promise<string> {
  return readFile(JSON.stringify(call.input));
}

describe("the @ctxkit/anthropic README loop against a strict Messages imitation", () => {
  it("should run 40 turns with no request failing after its recovery, every accepted request within the window", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const recoveries = countRecoveries(context);
    const client = new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 });
    const model = "claude-sonnet-4-6";
    // readme:start
    const claude = contextMessages(client, context);
    async function ask(question: string): Promise<string> {
      let response = await claude.create({ model, tools, max_tokens: 1024, messages: [{ role: "user", content: question }] });
      while (response.stop_reason === "tool_use") {
        const calls = response.content.filter((block) => block.type === "tool_use");
        const results: ToolResultBlockParam[] = await Promise.all(
          calls.map(async (call) => ({ type: "tool_result" as const, tool_use_id: call.id, content: await runTool(call) })),
        );
        response = await claude.create({ model, tools, max_tokens: 1024, messages: [{ role: "user", content: results }] });
      }
      return response.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    }
    // readme:end
    for (let turn = 1; turn <= TURNS; turn += 1) expect(await ask(questionFor(turn))).toMatch(new RegExp(`^Turn ${turn}:`));
    const accepted = server.requests.filter((request) => request.status === 200);
    const rejected = server.requests.filter((request) => request.status !== 200);
    expect(recoveries()).toBeGreaterThan(0);
    // Every rejection was a context-length one, each recovered by the retry right after it.
    for (const request of rejected) expect(request.promptTokens! + 1024).toBeGreaterThan(WINDOW);
    expect(rejected.length).toBe(recoveries());
    for (const request of accepted) expect(request.promptTokens! + 1024).toBeLessThanOrEqual(WINDOW);
    expect(accepted.length).toBeGreaterThanOrEqual(TURNS * 2);
    expect((await context.getMessages()).filter((message) => message.role === "tool")).toHaveLength(accepted.length - TURNS);
  });

  it("should be the loop the README shows", () => {
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"));
    expect(readmeHolds(new URL("../../../packages/anthropic/README.md", import.meta.url), region)).toBe(true);
  });
});
