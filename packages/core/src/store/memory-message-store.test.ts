import { describe, expect, it } from "vitest";
import { ContextClosedError } from "../errors.js";
import { userMessage } from "../testing/message-builders.js";
import { MemoryMessageStore } from "./memory-message-store.js";

describe("MemoryMessageStore", () => {
  it("should give back what it held when the same instance is opened again", async () => {
    const store = new MemoryMessageStore("session");
    await store.open();
    await store.append(userMessage("kept"));
    await store.writeState({ strategy: "summary", key: "through", value: 3 });
    await store.close();
    await store.open();
    const session = await store.load();
    expect(session.messages).toEqual([userMessage("kept")]);
    expect(session.state.get("summary")?.get("through")).toBe(3);
  });

  it("should report when its newest message was appended, after a reopen too, and no time after a replace", async () => {
    const store = new MemoryMessageStore();
    await store.open();
    expect((await store.load()).lastAddedAt).toBeUndefined();
    const before = Date.now();
    await store.append(userMessage("timed"));
    const after = Date.now();
    await store.close();
    await store.open();
    const { lastAddedAt } = await store.load();
    expect(lastAddedAt).toBeGreaterThanOrEqual(before);
    expect(lastAddedAt).toBeLessThanOrEqual(after);
    await store.replace([userMessage("set")], new Map());
    expect((await store.load()).lastAddedAt).toBeUndefined();
  });

  it("should replace and clear the messages while keeping the state given", async () => {
    const store = new MemoryMessageStore();
    await store.open();
    await store.append(userMessage("old"));
    await store.replace([userMessage("new")], new Map([["pins", new Map([["indices", [0]]])]]));
    expect((await store.load()).messages).toEqual([userMessage("new")]);
    await store.clear(new Map());
    const session = await store.load();
    expect(session.messages).toEqual([]);
    expect(session.state.size).toBe(0);
  });

  it("should hand out copies: changing a loaded session changes nothing stored", async () => {
    const store = new MemoryMessageStore();
    await store.open();
    await store.writeState({ strategy: "a", key: "k", value: 1 });
    const loaded = await store.load();
    (loaded.messages as unknown[]).push(userMessage("sneaked in"));
    (loaded.state.get("a") as Map<string, unknown>).set("k", 2);
    const again = await store.load();
    expect(again.messages).toEqual([]);
    expect(again.state.get("a")?.get("k")).toBe(1);
  });

  it("should reject every call with ContextClosedError naming its location while closed", async () => {
    const store = new MemoryMessageStore("s1");
    expect(store.location).toBe("memory:s1");
    await expect(store.append(userMessage("too early"))).rejects.toBeInstanceOf(ContextClosedError);
    await store.open();
    await store.close();
    await expect(store.load()).rejects.toThrow(/memory:s1/);
  });
});
