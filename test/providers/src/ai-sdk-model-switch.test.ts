// contextMiddleware over the real @ai-sdk/openai Responses provider, reasoning on and its encrypted content kept
// (`store: false`), against the strict imitation that binds each encrypted blob to its model: a conversation that
// moves to another model after 10 requests is never refused, and is refused with the provenance policy off.
import { createOpenAI } from "@ai-sdk/openai";
import { contextMiddleware } from "@ctxkit/ai-sdk";
import { createSimpleContext } from "@ctxkit/context-simple";
import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

let server: LoopbackServer;
beforeAll(async () => {
  server = await startOpenAIImitation({ ratio: 1.2, window: 1_000_000 });
});
afterAll(() => server.close());

const tools = {
  read_file: tool({
    description: READ_FILE_DESCRIPTION,
    inputSchema: jsonSchema<{ path: string }>({ type: "object", properties: { path: { type: "string" } }, required: ["path"] }),
    execute: async ({ path }) => readFile(JSON.stringify({ path })),
  }),
};
const providerOptions = { openai: { store: false, reasoningEffort: "low", include: ["reasoning.encrypted_content"] } };

/** Turns 1–4 on `first` (9 requests) and turn 5 on `second` (its 2 requests, the first after the switch). */
async function converse(checkProvenance: boolean): Promise<void> {
  const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: "test" });
  const middleware = contextMiddleware(createSimpleContext({ maxTokens: 400_000 }), { checkProvenance });
  const [first, second] = ["gpt-5-mini", "gpt-5"].map((id) => wrapLanguageModel({ model: openai.responses(id), middleware }));
  for (let turn = 1; turn <= 5; turn += 1) {
    const model = turn <= 4 ? first! : second!;
    const { text } = await generateText({ model, tools, prompt: questionFor(turn), stopWhen: stepCountIs(5), providerOptions });
    expect(text).toMatch(new RegExp(`^Turn ${turn}:`));
  }
}

type Item = { type?: string };
const reasoningIn = (body: Record<string, unknown>) => (body["input"] as Item[]).filter((item) => item.type === "reasoning").length;

describe("contextMiddleware when the conversation moves to another model", () => {
  it("should never be refused: the other model's encrypted reasoning is left out of the prompt", async () => {
    const from = server.requests.length;
    await converse(true);
    const requests = server.requests.slice(from);
    expect(requests.map((request) => request.status)).toEqual(Array(11).fill(200));
    // The first model gets its own reasoning back; the second gets none of it.
    expect(reasoningIn(requests[8]!.body)).toBeGreaterThan(0);
    expect(requests[9]!.body["model"]).toBe("gpt-5");
    expect(reasoningIn(requests[9]!.body)).toBe(0);
  });

  it("should be refused at the first request after the switch with the policy off", async () => {
    await expect(converse(false)).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/The encrypted content for item rs_\w+ could not be verified/),
    });
  });
});
