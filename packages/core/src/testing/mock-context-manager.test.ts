import { describe, expect, it } from "vitest";
import { ContextValidationError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { isContextManager } from "../protocol.js";
import { MockContextManager } from "./mock-context-manager.js";

const user = (content: string): Message => ({ role: "user", content });

describe("MockContextManager storage", () => {
  it("should implement the ContextManager protocol", () => {
    expect(isContextManager(new MockContextManager())).toBe(true);
  });

  it("should return every message from getMessagesForRequest, whatever the budget", async () => {
    const manager = new MockContextManager([user("first")]);
    await manager.addMessage(user("second"));
    expect(await manager.getMessagesForRequest({ tokenBudget: 1 })).toEqual([user("first"), user("second")]);
    expect(await manager.getMessages()).toEqual([user("first"), user("second")]);
  });

  it("should store frozen copies, leaving the caller's message alone", async () => {
    const manager = new MockContextManager();
    const message = user("hello");
    await manager.addMessage(message);
    const [stored] = await manager.getMessages();
    expect(stored).not.toBe(message);
    expect(Object.isFrozen(stored)).toBe(true);
    expect(Object.isFrozen(message)).toBe(false);
  });

  it("should replace the history on setMessages and empty it on clear", async () => {
    const manager = new MockContextManager([user("old")]);
    await manager.setMessages([user("resumed")]);
    expect(manager.messages).toEqual([user("resumed")]);
    await manager.clear();
    expect(await manager.getMessages()).toEqual([]);
  });
});

describe("MockContextManager validation", () => {
  it("should reject an invalid message and keep its state", async () => {
    const manager = new MockContextManager([user("kept")]);
    await expect(manager.addMessage({ role: "tool", content: "x" } as never)).rejects.toThrow(ContextValidationError);
    await expect(manager.setMessages([user("ok"), { role: "robot" } as never])).rejects.toThrow(ContextValidationError);
    expect(manager.messages).toEqual([user("kept")]);
  });
});

describe("MockContextManager call recording", () => {
  it("should record every call in order with its arguments, setMessages included", async () => {
    const manager = new MockContextManager();
    const history = [user("a")];
    const options = { tokenBudget: 100 };
    await manager.setMessages(history);
    await manager.addMessage(user("b"));
    await manager.getMessagesForRequest(options);
    await manager.getMessages();
    await manager.clear();
    expect(manager.calls).toEqual([
      { method: "setMessages", args: [history] },
      { method: "addMessage", args: [user("b")] },
      { method: "getMessagesForRequest", args: [options] },
      { method: "getMessages", args: [] },
      { method: "clear", args: [] },
    ]);
    expect(manager.calls[0]?.args[0]).toBe(history);
  });

  it("should record a call even when it is rejected", async () => {
    const manager = new MockContextManager();
    await manager.addMessage({} as never).catch(() => {});
    expect(manager.calls.map((call) => call.method)).toEqual(["addMessage"]);
  });
});
