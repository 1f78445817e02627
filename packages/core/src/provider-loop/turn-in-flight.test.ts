import { describe, expect, it } from "vitest";
import { createContextManager } from "../engine/create-context-manager.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { assistantMessage, userMessage } from "../testing/message-builders.js";
import { runTurn } from "./turn-in-flight.js";

const contents = (messages: readonly { content: unknown }[]) => messages.map((message) => message.content);

async function managerWith(...texts: string[]) {
  const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
  for (const text of texts) await manager.addMessage(userMessage(text));
  return manager;
}

describe("runTurn", () => {
  it("should keep what a call that resolves added", async () => {
    const manager = await managerWith("a");
    const result = await runTurn(manager, async (turn) => {
      await turn.add([userMessage("b"), assistantMessage("c")]);
      return "answered";
    });
    expect(result).toBe("answered");
    expect(contents(await manager.getMessages())).toEqual(["a", "b", "c"]);
  });

  it("should take out what a call that throws added, and rethrow its error", async () => {
    const manager = await managerWith("a");
    const failure = new Error("the provider is down");
    const outcome = runTurn(manager, async (turn) => {
      await turn.add([userMessage("b")]);
      throw failure;
    });
    await expect(outcome).rejects.toBe(failure);
    expect(contents(await manager.getMessages())).toEqual(["a"]);
  });

  it("should leave the history alone when another writer added a message during the call", async () => {
    const manager = await managerWith("a");
    const outcome = runTurn(manager, async (turn) => {
      await turn.add([userMessage("b")]);
      await manager.addMessage(userMessage("another writer's"));
      throw new Error("the provider is down");
    });
    await expect(outcome).rejects.toThrow(/down/);
    expect(contents(await manager.getMessages())).toEqual(["a", "b", "another writer's"]);
  });

  it("should take the turn out of a resumed session too, whose setMessages keeps its history", async () => {
    const store = new MemoryMessageStore();
    const earlier = await createContextManager({ store, tokenizer: "estimate" });
    await earlier.addMessage(userMessage("a"));
    const resumed = await createContextManager({ store, tokenizer: "estimate" });
    expect(resumed.isResumed).toBe(true);
    const outcome = runTurn(resumed, async (turn) => {
      await turn.add([userMessage("b")]);
      throw new Error("the provider is down");
    });
    await expect(outcome).rejects.toThrow(/down/);
    expect(contents(await resumed.getMessages())).toEqual(["a"]);
  });
});
