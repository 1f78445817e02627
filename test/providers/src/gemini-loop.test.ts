// The @ctxkit/google README loop, 40 turns with the real Google Gen AI client over HTTP against a strict imitation
// whose tokenizer counts 1.2× o200k. The manager is given the model's whole 8,192-token window, the model takes
// at most 7,168 input tokens (1,024 stay for the answer, as the Anthropic imitation counts max_tokens): the manager
// learns the provider's count from the usage, but only a recovery keeps the loop going past the input limit.
import { readFileSync } from "node:fs";
import { createSimpleContext } from "@ctxkit/context-simple";
import { contextModels } from "@ctxkit/google";
import { createPartFromFunctionResponse, GoogleGenAI, type FunctionCall, type FunctionDeclaration, type Part } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGeminiImitation } from "./gemini-imitation.js";
import type { LoopbackServer } from "./loopback-server.js";
import { FILLS_THE_WINDOW, WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { countRecoveries } from "./recovery-counter.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";

const TURNS = 40;
const INPUT_LIMIT = WINDOW - 1_024;
const functionDeclarations: FunctionDeclaration[] = [
  {
    name: "read_file",
    description: READ_FILE_DESCRIPTION,
    parametersJsonSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  },
];

let server: LoopbackServer;
beforeAll(async () => {
  server = await startGeminiImitation({ ratio: 1.2, window: INPUT_LIMIT });
});
afterAll(() => server.close());

async function runTool(call: FunctionCall): Promise<string> {
  return readFile(JSON.stringify(call.args));
}

describe("the @ctxkit/google README loop against a strict Gemini imitation", () => {
  it("should run 40 turns with no request failing after its recovery, every accepted request within the input limit", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW, ...FILLS_THE_WINDOW });
    const recoveries = countRecoveries(context);
    const ai = new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: server.url } });
    const model = "gemini-2.5-flash";
    // readme:start
    const gemini = contextModels(ai, context);
    async function ask(question: string): Promise<string> {
      const config = { tools: [{ functionDeclarations }] };
      let response = await gemini.generateContent({ model, config, contents: [{ role: "user", parts: [{ text: question }] }] });
      while (response.functionCalls !== undefined && response.functionCalls.length > 0) {
        const parts: Part[] = await Promise.all(
          response.functionCalls.map(async (call) =>
            createPartFromFunctionResponse(call.id ?? "", call.name ?? "", { output: await runTool(call) }),
          ),
        );
        response = await gemini.generateContent({ model, config, contents: [{ role: "user", parts }] });
      }
      return response.text ?? "";
    }
    // readme:end
    for (let turn = 1; turn <= TURNS; turn += 1) expect(await ask(questionFor(turn))).toMatch(new RegExp(`^Turn ${turn}:`));
    const accepted = server.requests.filter((request) => request.status === 200);
    const rejected = server.requests.filter((request) => request.status !== 200);
    expect(recoveries()).toBeGreaterThan(0);
    // Every rejection was an input-limit one, each recovered by the retry right after it.
    for (const request of rejected) {
      expect(request.promptTokens!).toBeGreaterThan(INPUT_LIMIT);
      expect(request.response).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    }
    expect(rejected.length).toBe(recoveries());
    for (const request of accepted) expect(request.promptTokens!).toBeLessThanOrEqual(INPUT_LIMIT);
    expect(accepted.length).toBeGreaterThanOrEqual(TURNS * 2);
    const history = await context.getMessages();
    expect(history.filter((message) => message.role === "tool")).toHaveLength(accepted.length - TURNS);
    // The imitation's calls come with no id: each got the stable one its response got too.
    expect(history.find((message) => message.role === "tool")).toMatchObject({ tool_call_id: "gemini-call-0-read_file" });
  });

  it("should be the loop the README shows", () => {
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"));
    expect(readmeHolds(new URL("../../../packages/google/README.md", import.meta.url), region)).toBe(true);
  });
});
