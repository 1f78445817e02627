// The @ctxkit/langchain README loop: createAgent with the middleware and a tool, 40 turns through @langchain/openai's
// ChatOpenAI over HTTP against the strict Chat Completions imitation (1.2× o200k in an 8,192-token window), streamed too.
import { readFileSync } from "node:fs";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message, ProviderUsage } from "@ctxkit/core";
import { contextMiddleware } from "@ctxkit/langchain";
import { AIMessageChunk } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { LoopbackServer } from "./loopback-server.js";
import { startOpenAIImitation } from "./openai-imitation.js";
import { WINDOW } from "./provider-tokens.js";
import { markedRegion, readmeHolds } from "./readme-loop.js";
import { questionFor, READ_FILE_DESCRIPTION, readFile as readProjectFile } from "./scripted-model.js";

const TURNS = 40;
const MAX_OUTPUT = 1_024;

let server: LoopbackServer;
beforeAll(async () => {
  server = await startOpenAIImitation();
});
afterAll(() => server.close());

const readFile = tool(async ({ path }) => readProjectFile(JSON.stringify({ path })), {
  name: "read_file",
  description: READ_FILE_DESCRIPTION,
  schema: z.object({ path: z.string() }),
});

/** A manager for a window the answer's tokens are kept out of, recording each view it gives and each usage it is told. */
function recordedContext() {
  const context = createSimpleContext({ maxTokens: WINDOW - MAX_OUTPUT });
  const views: Message[][] = [];
  const usages: ProviderUsage[] = [];
  const view = context.getMessagesForRequest.bind(context);
  context.getMessagesForRequest = async (options) => {
    const messages = await view(options);
    views.push(messages);
    return messages;
  };
  const report = context.reportUsage.bind(context);
  context.reportUsage = (usage) => {
    usages.push(usage);
    return report(usage);
  };
  return { context, views, usages };
}

type SentMessage = { role: string; content?: unknown; tool_call_id?: string; tool_calls?: { id: string }[] };

/** What a message says, in a form a request's message and a view's message share. */
function gist(message: SentMessage | Message): string {
  const text = typeof message.content === "string" ? message.content : "";
  const calls = "tool_calls" in message && message.tool_calls !== undefined ? message.tool_calls.map((call) => call.id).join(",") : "";
  const answers = "tool_call_id" in message ? (message.tool_call_id ?? "") : "";
  return `${message.role}|${text}|${calls}|${answers}`;
}

/** Each accepted request sent exactly the view the manager gave for it, after the agent's system prompt. */
function expectRequestsCarryViews(views: readonly Message[][]): void {
  const requests = server.requests.filter((request) => request.path === "/v1/chat/completions");
  expect(requests).toHaveLength(views.length);
  for (const [index, request] of requests.entries()) {
    const [system, ...rest] = request.body["messages"] as SentMessage[];
    expect(system!.role).toBe("system");
    expect(rest.map(gist)).toEqual(views[index]!.map(gist));
  }
}

describe("the @ctxkit/langchain README loop against a strict Chat Completions imitation", () => {
  it("should run 40 turns with no request refused, each request the manager's view and each usage reported", async () => {
    server.requests.length = 0;
    const { context, views, usages } = recordedContext();
    const model = new ChatOpenAI({
      model: "gpt-4.1-mini",
      maxTokens: MAX_OUTPUT,
      maxRetries: 0,
      apiKey: "test",
      configuration: { baseURL: `${server.url}/v1` },
    });
    // readme:start
    const agent = createAgent({
      model,
      tools: [readFile],
      systemPrompt: "You read the project's files and report what they say.",
      middleware: [contextMiddleware(context)],
    });
    async function ask(question: string): Promise<string> {
      // Only the new question: the manager holds the conversation, and the middleware sends its view.
      const { messages } = await agent.invoke({ messages: [{ role: "user", content: question }] });
      return messages.at(-1)!.text;
    }
    // readme:end
    for (let turn = 1; turn <= TURNS; turn += 1) expect(await ask(questionFor(turn))).toMatch(new RegExp(`^Turn ${turn}:`));
    expect(server.requests.filter((request) => request.status !== 200)).toEqual([]);
    expect(server.requests.length).toBeGreaterThanOrEqual(TURNS * 2);
    expectRequestsCarryViews(views);
    // The views were compacted: the history holds every result, the last request far fewer.
    const history = await context.getMessages();
    expect(history.filter((message) => message.role === "tool")).toHaveLength(server.requests.length - TURNS);
    expect(views.at(-1)!.length).toBeLessThan(history.length);
    // Every answer's usage reached the manager, as the imitation counted the prompt.
    expect(usages.map((usage) => usage.inputTokens)).toEqual(server.requests.map((request) => request.promptTokens));
  });

  it("should stream each answer's tokens to the caller, storing each turn once its stream ended, with its usage", async () => {
    server.requests.length = 0;
    const { context, views, usages } = recordedContext();
    const model = new ChatOpenAI({
      model: "gpt-4.1-mini",
      maxTokens: MAX_OUTPUT,
      maxRetries: 0,
      apiKey: "test",
      streaming: true,
      configuration: { baseURL: `${server.url}/v1` },
    });
    const agent = createAgent({ model, tools: [readFile], systemPrompt: "You read files.", middleware: [contextMiddleware(context)] });
    const turns = 4;
    for (let turn = 1; turn <= turns; turn += 1) {
      let answer = "";
      let chunks = 0;
      const stream = await agent.stream({ messages: [{ role: "user", content: questionFor(turn) }] }, { streamMode: "messages" });
      for await (const [message] of stream) {
        if (!AIMessageChunk.isInstance(message) || typeof message.content !== "string") continue;
        chunks += 1;
        answer += message.content;
      }
      expect(chunks).toBeGreaterThan(3);
      expect(answer).toContain(`Turn ${turn}:`);
    }
    expect(server.requests.every((request) => request.status === 200 && request.body["stream"] === true)).toBe(true);
    expectRequestsCarryViews(views);
    expect(usages.map((usage) => usage.inputTokens)).toEqual(server.requests.map((request) => request.promptTokens));
    const history = await context.getMessages();
    expect(history.filter((message) => message.role === "user")).toHaveLength(turns);
    expect(history.filter((message) => message.role === "tool")).toHaveLength(server.requests.length - turns);
  });

  it("should leave the manager as it was before a streamed call that was aborted midway or failed midway", async () => {
    server.requests.length = 0;
    const { context } = recordedContext();
    const model = new ChatOpenAI({
      model: "gpt-4.1-mini",
      maxTokens: MAX_OUTPUT,
      maxRetries: 0,
      apiKey: "test",
      streaming: true,
      configuration: { baseURL: `${server.url}/v1` },
    });
    const agent = createAgent({ model, tools: [readFile], middleware: [contextMiddleware(context)] });
    /** Reads a turn's stream; `stop` aborts it after its first piece. */
    const streamTurn = async (question: string, stop = false) => {
      const controller = new AbortController();
      const stream = await agent.stream(
        { messages: [{ role: "user", content: question }] },
        { streamMode: "messages", signal: controller.signal },
      );
      for await (const _piece of stream) if (stop) controller.abort(new Error("the caller stopped"));
    };
    await streamTurn(questionFor(1));
    const before = await context.getMessages();
    // A stalled stream never ends by itself: the caller stops it. A failing one ends with the provider's error event.
    await expect(streamTurn("Turn 2: read 1 file(s) [stall midway]", true)).rejects.toThrow("the caller stopped");
    expect(await context.getMessages()).toEqual(before);
    await expect(streamTurn("Turn 2: read 1 file(s) [fail midway]")).rejects.toThrow();
    expect(await context.getMessages()).toEqual(before);
    // Asked again, the turn is stored once.
    await streamTurn(questionFor(2));
    const history = await context.getMessages();
    expect(history.slice(0, before.length)).toEqual(before);
    expect(history.filter((message) => message.role === "user")).toHaveLength(2);
  });

  it("should be the loop the README shows", () => {
    const region = markedRegion(readFileSync(new URL(import.meta.url), "utf8"));
    expect(readmeHolds(new URL("../../../packages/langchain/README.md", import.meta.url), region)).toBe(true);
  });
});
