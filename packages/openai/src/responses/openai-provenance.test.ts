import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import OpenAI from "openai";
import type { ResponseCreateParamsNonStreaming } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { contextResponses } from "../loop/context-responses.js";
import { compactResponses } from "./compact-responses.js";
import { accountOf, openAIProvenance } from "./openai-provenance.js";
import { toResponseInputItems } from "./to-response-input-items.js";

const reasoning = { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "opaque-1" };
const history = (account?: string): Message[] => [
  { role: "user", content: "Hi" },
  {
    role: "assistant",
    content: [reasoning, { type: "text", text: "Hello." }],
    metadata: { provenance: openAIProvenance("gpt-5-mini", account) },
  },
  { role: "user", content: "Again" },
];

describe("accountOf", () => {
  it("should name a client's account by a fingerprint of its key, never the key, one per key", async () => {
    const first = await accountOf(new OpenAI({ apiKey: "sk-first-secret" }));
    expect(first).toMatch(/^key:[0-9a-f]{16}$/);
    expect(first).not.toContain("secret");
    expect(await accountOf(new OpenAI({ apiKey: "sk-first-secret" }))).toBe(first);
    expect(await accountOf(new OpenAI({ apiKey: "sk-second-secret" }))).not.toBe(first);
    expect(await accountOf({})).toBeUndefined();
  });
});

describe("toResponseInputItems", () => {
  describe("targetModel and account", () => {
    it("should send a reasoning item back to its own model and account, a dated snapshot included", () => {
      const items = toResponseInputItems(history("key:a"), { targetModel: "gpt-5-mini-2025-08-07", account: "key:a" });
      expect(items[1]).toEqual(reasoning);
    });

    it("should leave it out, whole, for another model or another account", () => {
      for (const options of [{ targetModel: "gpt-5" }, { targetModel: "gpt-5-mini", account: "key:b" }]) {
        const items = toResponseInputItems(history("key:a"), options);
        expect(JSON.stringify(items)).not.toContain("opaque-1");
        expect(items[1]).toEqual({ type: "message", role: "assistant", content: "Hello." });
      }
    });

    it("should send it as stored with no target", () => {
      expect(toResponseInputItems(history("key:a"))[1]).toEqual(reasoning);
    });
  });
});

function mockResponses(requests: ResponseCreateParamsNonStreaming[], apiKey: string, namesModel = true): OpenAI {
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const body = JSON.parse(String(init?.body)) as ResponseCreateParamsNonStreaming;
    requests.push(body);
    const output = String(input).endsWith("/compact")
      ? [{ type: "compaction", id: "cmp_1", encrypted_content: "opaque-compaction" }]
      : [
          { type: "reasoning", id: `rs_${requests.length}`, summary: [], encrypted_content: `opaque-${requests.length}` },
          {
            type: "message",
            id: `msg_${requests.length}`,
            role: "assistant",
            status: "completed",
            content: [{ type: "output_text", text: "Done.", annotations: [] }],
          },
        ];
    const reply = {
      id: `resp_${requests.length}`,
      object: "response",
      created_at: 0,
      ...(namesModel ? { model: `${body.model}-2025-08-07` } : {}),
      status: "completed",
      output,
    };
    return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
  };
  return new OpenAI({ apiKey, baseURL: "http://127.0.0.1:9/v1", fetch, maxRetries: 0 });
}

describe("contextResponses", () => {
  it("should record each output's model and account, and send its reasoning only to that model and account", async () => {
    const context = createSimpleContext({ maxTokens: 50_000, tokenizer: "estimate" });
    const requests: ResponseCreateParamsNonStreaming[] = [];
    const client = mockResponses(requests, "sk-one");
    const responses = contextResponses(client, context);
    await responses.create({ model: "gpt-5-mini", input: "One?" });
    const account = await accountOf(client);
    expect((await context.getMessages())[1]!.metadata).toEqual({
      provenance: { provider: "openai", model: "gpt-5-mini-2025-08-07", account },
    });
    await responses.create({ model: "gpt-5-mini", input: "Two?" });
    await responses.create({ model: "gpt-5", input: "Three?" });
    await contextResponses(mockResponses(requests, "sk-two"), context).create({ model: "gpt-5-mini", input: "Four?" });
    const reasoningSent = requests.map((request) => JSON.stringify(request.input).split('"type":"reasoning"').length - 1);
    expect(reasoningSent).toEqual([0, 1, 0, 0]);
    await compactResponses(client, context, { model: "gpt-5" });
    // Only gpt-5's own reasoning, got with this client's key, goes to the compaction.
    expect(JSON.stringify(requests.at(-1)!.input).match(/rs_\d/g)).toEqual(["rs_3"]);
    expect((await context.getMessages()).at(-1)!.metadata).toEqual({
      pinned: true,
      provenance: { provider: "openai", model: "gpt-5", account },
    });
  });
});

describe("contextResponses (regression)", () => {
  it("should store an output whose response names no model, recording no provenance", async () => {
    const context = createSimpleContext({ maxTokens: 50_000, tokenizer: "estimate" });
    await contextResponses(mockResponses([], "sk-one", false), context).create({ model: "gpt-5-mini", input: "One?" });
    const [, answer] = await context.getMessages();
    expect(answer).toMatchObject({ role: "assistant", content: [{ type: "reasoning" }, { type: "text", text: "Done." }] });
    expect(answer!.metadata).toBeUndefined();
  });
});
