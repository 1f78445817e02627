import { ContextOverflowError, createContextManager, MemoryMessageStore, type Message, type ProviderUsage } from "@ctxkit/core";
import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { answerWith, ScriptedChatModel, tooLong, type Answer } from "../test/__fixtures__/scripted-chat-model.js";
import { contextMiddleware, type ContextMiddlewareOptions } from "./context-middleware.js";

async function newManager(maxTokens = 16_384) {
  const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate", maxTokens });
  const reported: ProviderUsage[] = [];
  const report = manager.reportUsage.bind(manager);
  manager.reportUsage = (usage) => {
    reported.push(usage);
    return report(usage);
  };
  return { manager, reported };
}

const readFile = tool(async ({ path }: { path: string }) => `contents of ${path}`, {
  name: "read_file",
  description: "Reads a file.",
  schema: z.object({ path: z.string() }),
});

function agentOver(manager: Awaited<ReturnType<typeof newManager>>["manager"], answer: Answer, options: ContextMiddlewareOptions = {}) {
  const model = new ScriptedChatModel(answer);
  const agent = createAgent({ model, tools: [readFile], middleware: [contextMiddleware(manager, options)] });
  return { model, agent };
}

const texts = (messages: readonly Message[]) =>
  messages.map((message) => `${message.role}:${typeof message.content === "string" ? message.content : ""}`);

describe("contextMiddleware", () => {
  it("should send the manager's view, not the agent's state: a resumed history reaches the model", async () => {
    const { manager } = await newManager();
    await manager.setMessages([
      { role: "user", content: "Earlier question?" },
      { role: "assistant", content: "Earlier answer." },
    ]);
    const { model, agent } = agentOver(manager, () => answerWith("Now.", { input: 30, output: 2 }));
    await agent.invoke({ messages: [new HumanMessage("And now?")] });
    expect(model.requests[0]!.map((message) => message.content)).toEqual(["Earlier question?", "Earlier answer.", "And now?"]);
    expect(texts(await manager.getMessages())).toEqual([
      "user:Earlier question?",
      "assistant:Earlier answer.",
      "user:And now?",
      "assistant:Now.",
    ]);
  });

  it("should send a compacted view when the agent's state outgrows the budget, and keep the whole history", async () => {
    const { manager } = await newManager(600);
    const long = (index: number) => `Question ${index}: ${"the build log says nothing new ".repeat(12)}`;
    const { model, agent } = agentOver(manager, () => answerWith("Noted.", { input: 100, output: 2 }));
    let state = { messages: [] as Array<HumanMessage | AIMessage> };
    for (let index = 0; index < 12; index += 1) {
      state = (await agent.invoke({ messages: [...state.messages, new HumanMessage(long(index))] })) as typeof state;
    }
    expect(state.messages).toHaveLength(24);
    expect(await manager.getMessages()).toHaveLength(24);
    expect(model.requests.at(-1)!.length).toBeLessThan(23);
    expect(model.requests.at(-1)!.at(-1)!.content).toBe(long(11));
  });

  // (regression) System messages in the agent's input were left out of the view, so the model never saw them.
  it("should send the system messages of the agent's state beside the view, without storing them", async () => {
    const { manager } = await newManager();
    const { model, agent } = agentOver(manager, () => answerWith("Hi.", { input: 30, output: 2 }));
    await agent.invoke({ messages: [new SystemMessage("Answer in one word."), new HumanMessage("Greet me.")] });
    expect(model.requests[0]!.map((message) => [message.role, message.content])).toEqual([
      ["system", "Answer in one word."],
      ["user", "Greet me."],
    ]);
    expect(texts(await manager.getMessages())).toEqual(["user:Greet me.", "assistant:Hi."]);
  });

  it("should store a tool loop's calls and results as whole pairs, with the call's arguments", async () => {
    const { manager } = await newManager();
    const { agent } = agentOver(manager, (_request, call) =>
      call === 0
        ? new AIMessage({ content: "", tool_calls: [{ id: "call_1", name: "read_file", args: { path: "a.txt" }, type: "tool_call" }] })
        : answerWith("a.txt holds its contents.", { input: 60, output: 6 }),
    );
    await agent.invoke({ messages: [new HumanMessage("What is in a.txt?")] });
    expect(await manager.getMessages()).toEqual([
      { role: "user", content: "What is in a.txt?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } }],
      },
      { role: "tool", tool_call_id: "call_1", content: "contents of a.txt", name: "read_file", is_error: false },
      { role: "assistant", content: "a.txt holds its contents." },
    ]);
  });

  it("should report each call's usage_metadata to the manager", async () => {
    const { manager, reported } = await newManager();
    const { agent } = agentOver(manager, () => answerWith("Done.", { input: 120, cacheRead: 30, output: 8 }));
    await agent.invoke({ messages: [new HumanMessage("Go.")] });
    expect(reported).toEqual([{ inputTokens: 150, outputTokens: 8 }]);
  });

  it("should ignore a malformed usage with context:usage_rejected and keep the answered turn", async () => {
    const { manager, reported } = await newManager();
    const events: string[] = [];
    const { agent } = agentOver(manager, () => answerWith("Done.", { input: -5, output: 2 }), {
      onEvent: (event) => {
        events.push(event);
      },
    });
    await agent.invoke({ messages: [new HumanMessage("Go.")] });
    expect(events).toEqual(["context:usage_rejected"]);
    expect(reported).toEqual([]);
    expect(texts(await manager.getMessages())).toEqual(["user:Go.", "assistant:Done."]);
  });

  it("should call the model once more on a smaller view after a too-long rejection", async () => {
    const { manager } = await newManager();
    let recoveries = 0;
    const recover = manager.recoverOverflow.bind(manager);
    manager.recoverOverflow = (error, options) => {
      recoveries += 1;
      return recover(error, options);
    };
    const { model, agent } = agentOver(manager, (_request, call) => {
      if (call === 0) throw tooLong();
      return answerWith("Fits now.", { input: 40, output: 3 });
    });
    await agent.invoke({ messages: [new HumanMessage("Long question?")] });
    expect(model.requests).toHaveLength(2);
    expect(recoveries).toBe(1);
    expect(texts(await manager.getMessages())).toEqual(["user:Long question?", "assistant:Fits now."]);
  });

  it("should reject with ContextOverflowError and store nothing when the smaller view is rejected too", async () => {
    const { manager } = await newManager();
    await manager.setMessages([
      { role: "user", content: "Before." },
      { role: "assistant", content: "Yes." },
    ]);
    const { model, agent } = agentOver(manager, () => {
      throw tooLong();
    });
    const failure = await agent.invoke({ messages: [new HumanMessage("Too long?")] }).catch((error: unknown) => error);
    // LangChain hands a middleware's error on wrapped in its MiddlewareError.
    expect((failure as Error).cause).toBeInstanceOf(ContextOverflowError);
    expect(model.requests).toHaveLength(2);
    expect(texts(await manager.getMessages())).toEqual(["user:Before.", "assistant:Yes."]);
  });

  it("should not retry with recoverOverflow: false", async () => {
    const { manager } = await newManager();
    const { model, agent } = agentOver(
      manager,
      () => {
        throw tooLong();
      },
      { recoverOverflow: false },
    );
    const failure = await agent.invoke({ messages: [new HumanMessage("Too long?")] }).catch((error: unknown) => error);
    expect((failure as Error).cause).toBeInstanceOf(ContextOverflowError);
    expect(model.requests).toHaveLength(1);
    expect(await manager.getMessages()).toEqual([]);
  });

  it("should leave the manager as it was before an aborted call, and store the turn once when it is sent again", async () => {
    const { manager } = await newManager();
    await manager.setMessages([
      { role: "user", content: "Before." },
      { role: "assistant", content: "Yes." },
    ]);
    const controller = new AbortController();
    const { agent } = agentOver(manager, async (_request, call) => {
      if (call === 0) {
        controller.abort(new Error("the user pressed stop"));
        throw new Error("aborted mid-call");
      }
      return answerWith("Answered.", { input: 40, output: 2 });
    });
    const question = new HumanMessage("Will this finish?");
    await expect(agent.invoke({ messages: [question] }, { signal: controller.signal })).rejects.toThrow();
    expect(texts(await manager.getMessages())).toEqual(["user:Before.", "assistant:Yes."]);
    await agent.invoke({ messages: [new HumanMessage("Will this finish?")] });
    expect(texts(await manager.getMessages())).toEqual(["user:Before.", "assistant:Yes.", "user:Will this finish?", "assistant:Answered."]);
  });
});
