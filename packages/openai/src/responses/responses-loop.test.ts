import { createSimpleContext } from "@ctxkit/context-simple";
import { checkToolPairs } from "@ctxkit/core/kit";
import OpenAI from "openai";
import type {
  Response as ModelResponse,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
  ResponseOutputItem,
} from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { fromResponseInputItems } from "./from-response-input-items.js";
import { toResponseInputItems } from "./to-response-input-items.js";

// Three turns of reasoning plus a call, then an answer; each request body is recorded.
function mockResponses(requests: ResponseCreateParamsNonStreaming[]): OpenAI {
  const fetch = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    requests.push(JSON.parse(String(init?.body)) as ResponseCreateParamsNonStreaming);
    const step = requests.length;
    const output: ResponseOutputItem[] =
      step <= 3
        ? [
            { type: "reasoning", id: `rs_${step}`, summary: [], encrypted_content: `opaque-${step}` },
            {
              type: "function_call",
              id: `fc_${step}`,
              call_id: `call_${step}`,
              name: "fetch_page",
              arguments: `{"page":${step}}`,
              status: "completed",
            },
          ]
        : [
            {
              type: "message",
              id: "msg_4",
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: "Read three pages.", annotations: [] }],
            },
          ];
    const response: Partial<ModelResponse> = {
      id: `resp_${step}`,
      object: "response",
      created_at: 0,
      model: "gpt-test",
      status: "completed",
      output,
    };
    return new Response(JSON.stringify(response), { status: 200, headers: { "content-type": "application/json" } });
  };
  return new OpenAI({ apiKey: "test-key", baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
}

describe("a tool loop through client.responses.create", () => {
  it("should send each call right before its output, reasoning items back as they came, and no metadata", async () => {
    const requests: ResponseCreateParamsNonStreaming[] = [];
    const client = mockResponses(requests);
    const context = createSimpleContext({ maxTokens: 50_000, tokenizer: "estimate" });
    await context.addMessage({ role: "developer", content: "Read pages with the tool.", metadata: { pinned: true } });
    await context.addMessage({ role: "user", content: "Summarize the site." });
    for (let step = 0; step < 6; step += 1) {
      const response = await client.responses.create({
        model: "gpt-test",
        input: toResponseInputItems(await context.getMessagesForRequest()),
      });
      for (const message of fromResponseInputItems(response.output)) await context.addMessage(message);
      const calls = response.output.filter((item) => item.type === "function_call");
      if (calls.length === 0) break;
      for (const call of calls)
        await context.addMessage({ role: "tool", tool_call_id: call.call_id, content: `page text for ${call.arguments}` });
    }

    expect(requests).toHaveLength(4);
    for (const request of requests) {
      const input = request.input as ResponseInputItem[];
      expect(JSON.stringify(input)).not.toContain("metadata");
      input.forEach((item, index) => {
        if (item.type === "function_call") expect(input[index + 1]).toMatchObject({ type: "function_call_output", call_id: item.call_id });
      });
      expect(checkToolPairs(fromResponseInputItems(input))).toEqual([]);
    }
    const last = requests[3]!.input as ResponseInputItem[];
    expect(last.map((item) => item.type)).toEqual([
      "message",
      "message",
      ...Array(3).fill(["reasoning", "function_call", "function_call_output"]).flat(),
    ]);
    expect(last[2]).toEqual({ type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque-1" });
    expect(await context.getMessages()).toHaveLength(2 + 3 * 2 + 1);
  });
});
