// ChatOpenAI({ streaming: true }) (@langchain/openai 1.5.8) through contextMiddleware against the strict Chat
// Completions imitation, each run bounded so a stall fails fast. No request may leave loopback: one that tries is
// recorded and held unanswered, as a host that cannot be reached.
import { createSimpleContext } from "@ctxkit/context-simple";
import type { ProviderUsage } from "@ctxkit/core";
import { contextMiddleware } from "@ctxkit/langchain";
import { AIMessageChunk } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { WINDOW } from "./provider-tokens.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile as readProjectFile } from "./scripted-model.js";

const MAX_OUTPUT = 1_024;
/** Far above what a turn on loopback takes, far below the minutes LangChain spends retrying an unreachable host. */
const BOUND = 10_000;

let server: LoopbackServer;
const outside: string[] = [];
const outsideWaiters: ((url: string) => void)[] = [];
beforeAll(async () => {
  server = await startOpenAIImitation();
  const loopbackFetch = globalThis.fetch;
  vi.stubGlobal("fetch", (input: string | URL | Request, init?: RequestInit) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url.startsWith(server.url)) return loopbackFetch(input, init);
    outside.push(url);
    for (const wake of outsideWaiters.splice(0)) wake(url);
    return new Promise<Response>(() => {});
  });
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await server.close();
});

/** The next request that tries to leave loopback. */
const nextOutsideRequest = () => new Promise<string>((resolve) => outsideWaiters.push(resolve));

const readFile = tool(async ({ path }) => readProjectFile(JSON.stringify({ path })), {
  name: "read_file",
  description: READ_FILE_DESCRIPTION,
  schema: z.object({ path: z.string() }),
});

function streamingAgent() {
  const context = createSimpleContext({ maxTokens: WINDOW - MAX_OUTPUT });
  const usages: ProviderUsage[] = [];
  const report = context.reportUsage.bind(context);
  context.reportUsage = (usage) => {
    usages.push(usage);
    return report(usage);
  };
  const model = new ChatOpenAI({
    model: "gpt-4.1-mini",
    maxTokens: MAX_OUTPUT,
    maxRetries: 0,
    apiKey: "test",
    streaming: true,
    configuration: { baseURL: `${server.url}/v1` },
  });
  const agent = createAgent({ model, tools: [readFile], middleware: [contextMiddleware(context)] });
  return { agent, context, usages };
}

describe("ChatOpenAI({ streaming: true }) through contextMiddleware against the Chat Completions imitation", () => {
  it(
    'should finish agent.stream in "messages" mode, each turn streamed, stored with its usage, nothing leaving loopback',
    async () => {
      server.requests.length = 0;
      outside.length = 0;
      const { agent, context, usages } = streamingAgent();
      for (const turn of [1, 3]) {
        let answer = "";
        const stream = await agent.stream({ messages: [{ role: "user", content: questionFor(turn) }] }, { streamMode: "messages" });
        for await (const [message] of stream)
          if (AIMessageChunk.isInstance(message) && typeof message.content === "string") answer += message.content;
        expect(answer).toContain(`Turn ${turn}:`);
      }
      expect(server.requests.map((request) => [request.status, request.body["stream"]])).toEqual(server.requests.map(() => [200, true]));
      expect(usages.map((usage) => usage.inputTokens)).toEqual(server.requests.map((request) => request.promptTokens));
      expect((await context.getMessages()).filter((message) => message.role === "user")).toHaveLength(2);
      expect(outside).toEqual([]);
    },
    BOUND,
  );

  // Not the imitation's doing, and not ctxkit's: in @langchain/openai 1.5.8, a call LangChain does not stream to a
  // handler (agent.invoke; agent.stream without "messages") goes through ChatOpenAICompletions._generate, which reads
  // the whole stream and then estimates the usage the stream already reported with getNumTokens, which downloads a
  // tokenizer from tiktoken.pages.dev. Where that host cannot be reached it retries with backoff, about 80 s a
  // download and two a model call, which looks like a hang. The workaround is in packages/langchain/README.md; when
  // LangChain stops downloading here this test fails, and the workaround can go.
  it(
    "(LangChain @langchain/openai 1.5.8) should show agent.invoke waiting on a tokenizer download once the imitation's stream ended",
    async () => {
      server.requests.length = 0;
      outside.length = 0;
      const { agent, context } = streamingAgent();
      const asked = nextOutsideRequest();
      const invoked = agent.invoke({ messages: [{ role: "user", content: questionFor(1) }] });
      const first = await Promise.race([asked, invoked.then(() => "agent.invoke finished without a download")]);
      expect(first).toMatch(/^https:\/\/tiktoken\.pages\.dev\/js\/\w+\.json$/);
      // The imitation had answered the one request and streamed it to its end; the manager holds the question only,
      // the answer waiting on the download.
      expect(server.requests.map((request) => [request.status, request.body["stream"]])).toEqual([[200, true]]);
      expect((await context.getMessages()).map((message) => message.role)).toEqual(["user"]);
    },
    BOUND,
  );
});
