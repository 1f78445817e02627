import { describe, expect, it } from "vitest";
import { ContextHistoryConflictError } from "../errors.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { userMessage } from "../testing/message-builders.js";
import { createContextManager } from "./create-context-manager.js";

const contents = (messages: readonly { content: unknown }[]) => messages.map((message) => message.content);

describe("replaceMessages", () => {
  it("should replace the history when it is still the one the caller read", async () => {
    const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
    for (const text of ["a", "b", "c"]) await manager.addMessage(userMessage(text));
    const read = await manager.getMessages();
    await manager.replaceMessages(read, read.slice(0, -1));
    expect(contents(await manager.getMessages())).toEqual(["a", "b"]);
    await manager.close();
  });

  it("should reject with CONTEXT_HISTORY_CONFLICT and change nothing when a message was added since the read", async () => {
    const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
    for (const text of ["a", "b"]) await manager.addMessage(userMessage(text));
    const read = await manager.getMessages();
    await manager.addMessage(userMessage("added meanwhile"));
    const outcome = manager.replaceMessages(read, read.slice(0, -1));
    await expect(outcome).rejects.toBeInstanceOf(ContextHistoryConflictError);
    await expect(outcome).rejects.toMatchObject({ code: "CONTEXT_HISTORY_CONFLICT", expectedLength: 2 });
    expect(contents(await manager.getMessages())).toEqual(["a", "b", "added meanwhile"]);
    // Refused, not failed: the manager goes on, and an edit over the new history applies.
    const again = await manager.getMessages();
    await manager.replaceMessages(again, again.slice(0, -1));
    expect(contents(await manager.getMessages())).toEqual(["a", "b"]);
    await manager.close();
  });

  it("should refuse an edit over a history another call replaced with as many messages", async () => {
    const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
    for (const text of ["a", "b"]) await manager.addMessage(userMessage(text));
    const read = await manager.getMessages();
    await manager.setMessages([userMessage("x"), userMessage("y")]);
    await expect(manager.replaceMessages(read, [])).rejects.toMatchObject({ code: "CONTEXT_HISTORY_CONFLICT" });
    expect(contents(await manager.getMessages())).toEqual(["x", "y"]);
    await manager.close();
  });

  it("should apply on a resumed session, where setMessages is ignored", async () => {
    const store = new MemoryMessageStore();
    const first = await createContextManager({ store, tokenizer: "estimate" });
    for (const text of ["a", "b"]) await first.addMessage(userMessage(text));
    await first.close();
    const resumed = await createContextManager({ store, tokenizer: "estimate" });
    expect(resumed.isResumed).toBe(true);
    const read = await resumed.getMessages();
    await resumed.replaceMessages(read, read.slice(0, -1));
    expect(contents(await resumed.getMessages())).toEqual(["a"]);
    await resumed.close();
  });
});

describe("MemoryMessageStore.replace with an expectation", () => {
  it("should reject a stale expectation with a typed error, write nothing, and stay usable", async () => {
    const store = new MemoryMessageStore();
    await store.open();
    await store.append(userMessage("a"));
    await expect(store.replace([], new Map(), { length: 0 })).rejects.toBeInstanceOf(ContextHistoryConflictError);
    expect(contents((await store.load()).messages)).toEqual(["a"]);
    await store.replace([userMessage("b")], new Map(), { length: 1 });
    await store.append(userMessage("c"));
    expect(contents((await store.load()).messages)).toEqual(["b", "c"]);
  });
});
