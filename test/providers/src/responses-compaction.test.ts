// contextResponses and compactResponses with the real OpenAI client over HTTP against the strict Responses imitation.
import { createSimpleContext } from "@ctxkit/context-simple";
import { ContextRequestError } from "@ctxkit/core";
import { compactResponses, contextResponses, isCompactionRecord } from "@ctxkit/openai";
import OpenAI from "openai";
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { WINDOW } from "./provider-tokens.js";
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

let server: LoopbackServer;
let client: OpenAI;
beforeAll(async () => {
  server = await startOpenAIImitation();
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
});
afterAll(() => server.close());

type Item = { type?: string; role?: string; id?: string; encrypted_content?: string };

describe("contextResponses with on-demand compaction", () => {
  it("should keep each compaction item verbatim as a pinned record and send the conversation from the latest one", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    const recoveries = countRecoveries(context);
    const responses = contextResponses(client, context);
    const params = { model: "gpt-4.1-mini", tools, store: false, max_output_tokens: 1024 };
    for (let turn = 1; turn <= 12; turn += 1) {
      let response = await responses.create({ ...params, input: questionFor(turn) });
      for (;;) {
        const calls = response.output.filter((item) => item.type === "function_call");
        if (calls.length === 0) break;
        const outputs: ResponseInputItem[] = calls.map((call) => ({
          type: "function_call_output",
          call_id: call.call_id,
          output: readFile(call.arguments),
        }));
        response = await responses.create({ ...params, input: outputs });
      }
      expect(response.output_text).toMatch(new RegExp(`^Turn ${turn}:`));
      if (turn === 6 || turn === 10) await compactResponses(client, context, { model: "gpt-4.1-mini" });
    }
    const compactions = server.requests.filter((request) => request.path === "/v1/responses/compact");
    expect(compactions.every((request) => request.status === 200)).toBe(true);
    const issued = compactions.map((request) => (request.response as { output: Item[] }).output.at(-1)!);
    expect(issued).toHaveLength(2);
    // Stored verbatim, in order, pinned.
    const records = (await context.getMessages()).filter(isCompactionRecord);
    expect(records.map((record) => (record.content as unknown[])[0])).toEqual(issued);
    for (const record of records) expect(record.metadata?.pinned).toBe(true);
    // Every request after a compaction carries the latest item verbatim, with only user messages before it.
    const creates = server.requests.filter((request) => request.path === "/v1/responses" && request.status === 200);
    const afterSecond = creates.filter((request) => (request.body["input"] as Item[]).some((item) => item.id === issued[1]!.id));
    expect(afterSecond.length).toBeGreaterThan(0);
    for (const request of afterSecond) {
      const input = request.body["input"] as Item[];
      const at = input.findIndex((item) => item.type === "compaction");
      expect(input[at]).toEqual(issued[1]);
      expect(input.filter((item) => item.type === "compaction")).toHaveLength(1);
      for (const before of input.slice(0, at)) expect(before.role).toBe("user");
    }
    for (const request of creates) expect(request.promptTokens! + 1024).toBeLessThanOrEqual(WINDOW);
    expect(server.requests.filter((request) => request.status !== 200)).toHaveLength(recoveries());
  });

  it("should refuse previous_response_id with a ContextRequestError naming it", async () => {
    const context = createSimpleContext({ maxTokens: WINDOW });
    const rejection = contextResponses(client, context).create({
      model: "gpt-4.1-mini",
      input: "Hi",
      previous_response_id: "resp_1",
    } as never);
    await expect(rejection).rejects.toBeInstanceOf(ContextRequestError);
    await expect(rejection).rejects.toMatchObject({ issues: [{ path: "previous_response_id" }] });
    expect(await context.getMessages()).toEqual([]);
  });
});
