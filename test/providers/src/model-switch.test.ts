// A session that changes model, key or provider midway, through the real SDK clients and the loop wrappers, against
// imitations that bind each signature and encrypted blob to the model (and key) that issued it: with the provenance
// policy no request is refused; with it off, the first request after a switch is refused as the services refuse it.
import Anthropic from "@anthropic-ai/sdk";
import { contextMessages, type ContextMessagesOptions } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { compactResponses, contextResponses, type ContextResponsesOptions } from "@ctxkit/openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicImitation } from "./anthropic-imitation.js";
import type { LoopbackServer, RecordedRequest } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { anthropicStep, responsesStep, runSession } from "./session-steps.js";

// A window no request of these sessions reaches: every refusal here is about provenance, never about length.
const WIDE = { ratio: 1.2, window: 1_000_000 };
const SWITCH_AT = 10;

let anthropicServer: LoopbackServer;
let openAIServer: LoopbackServer;
beforeAll(async () => {
  [anthropicServer, openAIServer] = await Promise.all([startAnthropicImitation(WIDE), startOpenAIImitation(WIDE)]);
});
afterAll(() => Promise.all([anthropicServer.close(), openAIServer.close()]));

const anthropicClient = () => new Anthropic({ baseURL: anthropicServer.url, apiKey: "test", maxRetries: 0 });
const openAIClient = (apiKey = "test") => new OpenAI({ baseURL: `${openAIServer.url}/v1`, apiKey, maxRetries: 0 });
const newContext = () => createSimpleContext({ maxTokens: 400_000 });

/** The requests a server received from `from` on. */
const since = (server: LoopbackServer, from: number): RecordedRequest[] => server.requests.slice(from);

type Block = { type: string };
const thinkingBlocksOf = (request: RecordedRequest) =>
  (request.body["messages"] as { content: string | Block[] }[]).flatMap((message) =>
    typeof message.content === "string" ? [] : message.content.filter((block) => block.type === "thinking"),
  );
const reasoningItemsOf = (request: RecordedRequest) =>
  (request.body["input"] as Block[]).filter((item) => typeof item === "object" && item.type === "reasoning");

async function rejectionOf(promise: Promise<unknown>): Promise<{ status?: number; message: string }> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (error === undefined) throw new Error("the imitation accepted every request");
  return error as { status?: number; message: string };
}

const provenanceModels = (history: readonly Message[]) =>
  history.flatMap((message) => (message.metadata?.provenance === undefined ? [] : [message.metadata.provenance.model]));

describe.each([false, true])("a session that switches models (stream: %s)", (stream) => {
  it("should never be refused by Anthropic when it moves from one Claude model to another after 10 requests", async () => {
    const context = newContext();
    const claude = contextMessages(anthropicClient(), context);
    const from = anthropicServer.requests.length;
    await runSession((request) => anthropicStep(claude, request < SWITCH_AT ? "claude-sonnet-4-6" : "claude-opus-4-1", stream), 14);
    const requests = since(anthropicServer, from);
    expect(requests.map((request) => request.status)).toEqual(Array(14).fill(200));
    // The model's own thinking goes back to it; the other model's is left out of the request, never out of the history.
    expect(thinkingBlocksOf(requests[SWITCH_AT - 1]!).length).toBeGreaterThan(0);
    expect(thinkingBlocksOf(requests[SWITCH_AT]!)).toEqual([]);
    // That request continues a tool turn the other model began, whose thinking cannot go: it is sent with thinking off,
    // as Anthropic requires; the next turn thinks again.
    expect(requests[SWITCH_AT]!.body["thinking"]).toEqual({ type: "disabled" });
    expect(requests.at(-1)!.body["thinking"]).toMatchObject({ type: "enabled" });
    expect(new Set(provenanceModels(await context.getMessages()))).toEqual(new Set(["claude-sonnet-4-6", "claude-opus-4-1"]));
  });

  it("should never be refused by the Responses API when it moves to another model, or to another key", async () => {
    const context = newContext();
    const mini = contextResponses(openAIClient(), context);
    const other = contextResponses(openAIClient("another-key"), context);
    const from = openAIServer.requests.length;
    await runSession(
      (request) => (request < SWITCH_AT ? responsesStep(mini, "gpt-5-mini", stream) : responsesStep(mini, "gpt-5", stream)),
      14,
    );
    await runSession((_request) => responsesStep(other, "gpt-5", stream), 4, 8);
    const requests = since(openAIServer, from);
    expect(requests.map((request) => request.status)).toEqual(Array(18).fill(200));
    expect(reasoningItemsOf(requests[SWITCH_AT - 1]!).length).toBeGreaterThan(0);
    expect(reasoningItemsOf(requests[SWITCH_AT]!)).toEqual([]);
    // The new key's first request carries none of the old key's encrypted reasoning.
    expect(reasoningItemsOf(requests[14]!)).toEqual([]);
  });
});

describe("the same switches with the provenance policy off", () => {
  const off: ContextMessagesOptions & ContextResponsesOptions = { checkProvenance: false };

  it("should be refused by Anthropic at the first request after the switch: Invalid `signature` in `thinking` block", async () => {
    const context = newContext();
    const claude = contextMessages(anthropicClient(), context, off);
    const error = await rejectionOf(
      runSession((request) => anthropicStep(claude, request < SWITCH_AT ? "claude-sonnet-4-6" : "claude-opus-4-1"), 14),
    );
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(error.message).toMatch(/messages\.\d+\.content\.0: Invalid `signature` in `thinking` block/);
    expect(anthropicServer.requests.at(-1)!.body["model"]).toBe("claude-opus-4-1");
  });

  it("should be refused by the Responses API after a model switch and after a key switch: the encrypted content could not be verified", async () => {
    const context = newContext();
    const mini = contextResponses(openAIClient(), context, off);
    const switched = await rejectionOf(runSession((request) => responsesStep(mini, request < SWITCH_AT ? "gpt-5-mini" : "gpt-5"), 14));
    expect(switched).toMatchObject({ status: 400, code: "invalid_encrypted_content" });
    expect(switched.message).toMatch(/The encrypted content for item rs_\w+ could not be verified\./);

    const keyed = newContext();
    await runSession(() => responsesStep(contextResponses(openAIClient(), keyed, off), "gpt-5"), 3);
    const other = contextResponses(openAIClient("another-key"), keyed, off);
    const rekeyed = await rejectionOf(runSession(() => responsesStep(other, "gpt-5"), 2, 2));
    expect(rekeyed.message).toMatch(/could not be verified/);
  });
});

describe("a session compacted by responses.compact that then switches models", () => {
  const compactionsIn = (request: RecordedRequest) => (request.body["input"] as Block[]).filter((item) => item.type === "compaction");

  async function compactThenSwitch(options: ContextResponsesOptions): Promise<RecordedRequest[]> {
    const context = newContext();
    const client = openAIClient();
    const responses = contextResponses(client, context, options);
    const from = openAIServer.requests.length;
    await runSession(() => responsesStep(responses, "gpt-5-mini"), 6);
    await compactResponses(client, context, { model: "gpt-5-mini" });
    await runSession((request) => responsesStep(responses, request < 2 ? "gpt-5-mini" : "gpt-5"), 4, 4);
    return since(openAIServer, from);
  }

  it("should send the model its own compaction item, and another model the view without it, never refused", async () => {
    const requests = (await compactThenSwitch({})).filter((request) => request.path === "/v1/responses");
    expect(requests.map((request) => request.status)).toEqual(Array(10).fill(200));
    expect(compactionsIn(requests[6]!)).toHaveLength(1);
    expect(compactionsIn(requests[8]!)).toEqual([]);
    expect(requests[8]!.body["model"]).toBe("gpt-5");
  });

  it("should be refused after the switch with the policy off: the compaction item's content could not be verified", async () => {
    const error = await rejectionOf(compactThenSwitch({ checkProvenance: false }));
    expect(error.message).toMatch(/The encrypted content for item cmp_\w+ could not be verified/);
  });
});

describe.each([false, true])("a session that moves between providers after 10 requests (stream: %s)", (stream) => {
  it("should never be refused when it moves from Anthropic to OpenAI Responses", async () => {
    const context = newContext();
    const claude = contextMessages(anthropicClient(), context);
    const responses = contextResponses(openAIClient(), context);
    const [fromAnthropic, fromOpenAI] = [anthropicServer.requests.length, openAIServer.requests.length];
    await runSession(
      (request) => (request < SWITCH_AT ? anthropicStep(claude, "claude-sonnet-4-6", stream) : responsesStep(responses, "gpt-5", stream)),
      14,
    );
    expect(since(anthropicServer, fromAnthropic).map((request) => request.status)).toEqual(Array(SWITCH_AT).fill(200));
    expect(since(openAIServer, fromOpenAI).map((request) => request.status)).toEqual(Array(4).fill(200));
  });

  it("should never be refused when it moves from OpenAI Responses to Anthropic", async () => {
    const context = newContext();
    const claude = contextMessages(anthropicClient(), context);
    const responses = contextResponses(openAIClient(), context);
    const [fromAnthropic, fromOpenAI] = [anthropicServer.requests.length, openAIServer.requests.length];
    await runSession(
      (request) =>
        request < SWITCH_AT ? responsesStep(responses, "gpt-5-mini", stream) : anthropicStep(claude, "claude-sonnet-4-6", stream),
      14,
    );
    expect(since(openAIServer, fromOpenAI).map((request) => request.status)).toEqual(Array(SWITCH_AT).fill(200));
    expect(since(anthropicServer, fromAnthropic).map((request) => request.status)).toEqual(Array(4).fill(200));
  });
});
