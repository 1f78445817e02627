import { describe, expect, it } from "vitest";
import { ContextConfigError } from "../errors.js";
import type { ContextEventName } from "../events.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import type { StoredSession } from "../store/message-store.js";
import { userMessage } from "../testing/message-builders.js";
import { createContextManager } from "./create-context-manager.js";

/** A memory store that records its calls, and fails `load` when told to. */
class RecordingStore extends MemoryMessageStore {
  readonly calls: string[] = [];
  constructor(
    private readonly failLoad = false,
    private readonly droppedBytes = 0,
  ) {
    super();
  }
  override open() {
    this.calls.push("open");
    return super.open();
  }
  override async load(): Promise<StoredSession> {
    this.calls.push("load");
    if (this.failLoad) throw new Error("disk on fire");
    return { ...(await super.load()), droppedBytes: this.droppedBytes };
  }
  override close() {
    this.calls.push("close");
    return super.close();
  }
}

describe("createContextManager", () => {
  it("should resolve to a manager whose store is open and loaded", async () => {
    const store = new RecordingStore();
    const manager = await createContextManager({ store, tokenizer: "estimate" });
    expect(store.calls).toEqual(["open", "load"]);
    await manager.addMessage(userMessage("hello"));
    expect(await manager.getMessages()).toEqual([userMessage("hello")]);
    await manager.close();
    expect(store.calls.at(-1)).toBe("close");
  });

  it("should reject a bad config with ContextConfigError naming the module, before the store is touched", async () => {
    const store = new RecordingStore();
    const attempt = createContextManager({ store, moduleName: "@example/context", maxTokens: -1 });
    await expect(attempt).rejects.toBeInstanceOf(ContextConfigError);
    await expect(attempt).rejects.toThrow(/@example\/context/);
    expect(store.calls).toEqual([]);
  });

  it("should reject with the store's own error when it cannot be loaded, and close the store again", async () => {
    const store = new RecordingStore(true);
    await expect(createContextManager({ store })).rejects.toThrow("disk on fire");
    expect(store.calls).toEqual(["open", "load", "close"]);
  });

  it("should send events emitted while opening to onEvent", async () => {
    const events: ContextEventName[] = [];
    await createContextManager({ store: new RecordingStore(false, 12), onEvent: (event) => void events.push(event) });
    expect(events).toEqual(["context:recover"]);
  });
});
