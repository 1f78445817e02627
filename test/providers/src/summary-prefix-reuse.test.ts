// A summary request reuses the agent's cached prefix: the real OpenAI and Anthropic clients over HTTP, a session that
// compacts with a summary, and imitations that report what the provider read from its prompt cache.
import Anthropic from "@anthropic-ai/sdk";
import type { Tool, ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { anthropicCompactionSummarizer, contextMessages } from "@ctxkit/anthropic";
import { createSimpleContext } from "@ctxkit/context-simple";
import { contextChatCompletions } from "@ctxkit/openai";
import { createSummaryStrategy, openAIChatSummarizer, type Summarizer } from "@ctxkit/strategy-summary";
import OpenAI from "openai";
import type { ChatCompletionTool } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoopbackServer, RecordedRequest } from "./loopback-server.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile } from "./scripted-model.js";
import { isSummaryAsk, SCRIPTED_SUMMARY, startCachingChatCompletions, startSummarizingAnthropic } from "./summary-prefix-imitations.js";

// A window the session's views fit whole, so nothing but the summary changes them.
const COUNTING = { ratio: 1.2, window: 65_536 };
const SYSTEM = "You are a build engineer. Read the files you are asked about and report what they say.";
const schema = { type: "object" as const, properties: { path: { type: "string" } }, required: ["path"] };
const openAITools: ChatCompletionTool[] = [
  { type: "function", function: { name: "read_file", description: READ_FILE_DESCRIPTION, parameters: schema } },
];
const anthropicTools: Tool[] = [{ name: "read_file", description: READ_FILE_DESCRIPTION, input_schema: schema }];

/** A manager whose only compaction is the summary: from 70% of 24,000 tokens to half, which a summary and the newest file fit. */
function summarizingContext(summarizer: Summarizer) {
  return createSimpleContext({
    maxTokens: 24_000,
    compactThreshold: 0.7,
    targetRatio: 0.5,
    strategies: [createSummaryStrategy({ summarizer }), "truncate"],
  });
}

/**
 * The first summary request, the agent request right before it (whose view the summary request starts with), and
 * the one right after it (the view the summary was made for).
 */
function summaryAround(server: LoopbackServer): { summary: RecordedRequest; previous: RecordedRequest; next: RecordedRequest } {
  const at = server.requests.findIndex((request) => isSummaryAsk(request.body));
  expect(at).toBeGreaterThan(0);
  const previous = server.requests[at - 1]!;
  expect(isSummaryAsk(previous.body)).toBe(false);
  expect(previous.status).toBe(200);
  expect(server.requests[at]!.status).toBe(200);
  return { summary: server.requests[at]!, previous, next: server.requests[at + 1]! };
}

/** Breakpoints mark where a cache entry is written; they are not part of the prefix the cache compares. */
function withoutBreakpoints(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, inner) => (key === "cache_control" ? undefined : inner));
}

describe("a summary request after a Chat Completions session", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startCachingChatCompletions(COUNTING);
  });
  afterAll(() => server.close());

  /** Six tool-calling turns of `model` through `contextChatCompletions`, summarized by `summaryModel`. */
  async function runSession(model: string, summaryModel: string): Promise<void> {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "test", maxRetries: 0 });
    // The default reuseCachedPrefix ("auto"): the loop tells the manager each request's model, which decides it.
    const context = summarizingContext(openAIChatSummarizer(client, { model: summaryModel }));
    const chat = contextChatCompletions(client, context);
    for (let turn = 1; turn <= 6; turn += 1) {
      const opening = turn === 1 ? [{ role: "system" as const, content: SYSTEM }] : [];
      let completion = await chat.create({
        model,
        tools: openAITools,
        max_tokens: 1024,
        messages: [...opening, { role: "user", content: questionFor(turn) }],
      });
      while (completion.choices[0]!.finish_reason === "tool_calls") {
        const calls = completion.choices[0]!.message.tool_calls ?? [];
        const results = calls.map((call) => ({
          role: "tool" as const,
          tool_call_id: call.id,
          content: call.type === "function" ? readFile(call.function.arguments) : "",
        }));
        completion = await chat.create({ model, tools: openAITools, max_tokens: 1024, messages: results });
      }
    }
  }

  it("should start with the previous request's messages byte for byte, with its tools, and be read from the prompt cache", async () => {
    const model = "gpt-4.1-mini";
    server.requests.length = 0;
    // contextChatCompletions records no provenance on these answers: the request's model alone says whose cache holds the prefix.
    await runSession(model, model);
    const { summary, previous, next } = summaryAround(server);
    const sent = summary.body["messages"] as unknown[];
    const before = previous.body["messages"] as unknown[];
    expect(sent).toHaveLength(before.length + 1);
    expect(JSON.stringify(sent.slice(0, before.length))).toBe(JSON.stringify(before));
    expect(sent[0]).toEqual({ role: "system", content: SYSTEM });
    expect(JSON.stringify(summary.body["tools"])).toBe(JSON.stringify(previous.body["tools"]));
    expect(summary.body["model"]).toBe(model);
    const usage = (summary.response as { usage: { prompt_tokens: number; prompt_tokens_details: { cached_tokens: number } } }).usage;
    // All of the previous request's prompt but what the cache's 128-token steps leave off (and the ask) is read from the cache.
    expect(usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(previous.promptTokens! - 256);
    expect(usage.prompt_tokens_details.cached_tokens).toBeLessThan(usage.prompt_tokens);
    // The summary took the place of what it covers in the next request.
    expect(JSON.stringify(next.body["messages"])).toContain(SCRIPTED_SUMMARY);
    expect(next.body["messages"] as unknown[]).not.toHaveLength(before.length + 1);
  });

  it("should send the transcript form when the summary's model is not the one the conversation was sent to", async () => {
    server.requests.length = 0;
    // Another model reads nothing from gpt-4.1-mini's cache: the prefix would cost about twice the transcript.
    await runSession("gpt-4.1-mini", "gpt-4o-mini");
    const summaries = server.requests.filter((request) => request.body["model"] === "gpt-4o-mini");
    expect(summaries.length).toBeGreaterThan(0);
    for (const summary of summaries) {
      const sent = summary.body["messages"] as { role: string; content: string }[];
      expect(sent.map((message) => message.role)).toEqual(["system", "user"]);
      expect(sent[1]!.content).toMatch(/^(<previous-summary>|<conversation>)/);
      expect(summary.body["tools"]).toBeUndefined();
      expect(isSummaryAsk(summary.body)).toBe(false);
    }
    expect(server.requests.some((request) => isSummaryAsk(request.body))).toBe(false);
  });
});

describe("a summary request after a Messages session", () => {
  let server: LoopbackServer;
  beforeAll(async () => {
    server = await startSummarizingAnthropic(COUNTING);
  });
  afterAll(() => server.close());

  /** Six tool-calling turns of `model` through `contextMessages`, summarized by `summaryModel`. */
  async function runSession(model: string, summaryModel: string): Promise<void> {
    const client = new Anthropic({ baseURL: server.url, apiKey: "test", maxRetries: 0 });
    // The default reuseCachedPrefix ("auto"): the loop tells the manager each request's model, which decides it.
    const context = summarizingContext(anthropicCompactionSummarizer(client, { model: summaryModel, system: SYSTEM }));
    const claude = contextMessages(client, context);
    for (let turn = 1; turn <= 6; turn += 1) {
      const params = { model, system: SYSTEM, tools: anthropicTools, max_tokens: 1024 };
      let response = await claude.create({ ...params, messages: [{ role: "user", content: questionFor(turn) }] });
      while (response.stop_reason === "tool_use") {
        const results: ToolResultBlockParam[] = response.content.flatMap((block) =>
          block.type === "tool_use"
            ? [{ type: "tool_result" as const, tool_use_id: block.id, content: readFile(JSON.stringify(block.input)) }]
            : [],
        );
        response = await claude.create({ ...params, messages: [{ role: "user", content: results }] });
      }
    }
  }

  it("should send the previous request's system, tools and messages, then the ask, and read them from the prompt cache", async () => {
    const model = "claude-sonnet-4-6";
    server.requests.length = 0;
    // contextMessages records provenance only on answers that hold thinking or compaction blocks, and this session's
    // hold neither: the request's model alone says whose cache holds the prefix.
    await runSession(model, model);
    const { summary, previous, next } = summaryAround(server);
    expect(summary.body["compaction"]).toBeUndefined();
    expect(JSON.stringify(summary.body["tools"])).toBe(JSON.stringify(previous.body["tools"]));
    expect(withoutBreakpoints(summary.body["system"])).toEqual(withoutBreakpoints(previous.body["system"]));
    const sent = summary.body["messages"] as { role: string; content: { type: string; text?: string }[] }[];
    const before = previous.body["messages"] as { role: string; content: { type: string }[] }[];
    // The ask joins the last user turn (roles must alternate): every block before it is the previous request's.
    expect(sent).toHaveLength(before.length);
    const lastBefore = before.at(-1)!;
    expect(
      JSON.stringify(withoutBreakpoints([...sent.slice(0, -1), { ...sent.at(-1)!, content: sent.at(-1)!.content.slice(0, -1) }])),
    ).toBe(JSON.stringify(withoutBreakpoints(before)));
    expect(lastBefore.role).toBe("user");
    expect(sent.at(-1)!.content.at(-1)!.text).toMatch(/^You summarize part of a conversation/);
    // The previous request's last breakpoint is where this one's last is: the prefix it wrote is read back.
    expect(JSON.stringify(sent.at(-1)!.content.at(-2))).toBe(JSON.stringify(lastBefore.content.at(-1)));
    const usage = (summary.response as { usage: Record<string, number> }).usage;
    expect(usage["cache_read_input_tokens"]).toBeGreaterThan(0);
    expect(usage["cache_creation_input_tokens"]).toBe(0);
    expect(usage["cache_read_input_tokens"]).toBeGreaterThan(usage["input_tokens"]! * 10);
    expect(JSON.stringify(next.body["messages"])).toContain(SCRIPTED_SUMMARY);
  });

  it("should send the compaction request when the summary's model is not the one the conversation was sent to", async () => {
    server.requests.length = 0;
    // Another model reads nothing from claude-sonnet-4-6's cache: the prefix would cost about twice the compaction request.
    await runSession("claude-sonnet-4-6", "claude-haiku-4-5");
    const summaries = server.requests.filter((request) => request.body["model"] === "claude-haiku-4-5");
    expect(summaries.length).toBeGreaterThan(0);
    for (const summary of summaries) {
      expect(summary.body["compaction"]).toMatchObject({ type: "summarize" });
      expect(summary.body["tools"]).toBeUndefined();
      expect(isSummaryAsk(summary.body)).toBe(false);
    }
    expect(server.requests.some((request) => isSummaryAsk(request.body))).toBe(false);
  });
});
