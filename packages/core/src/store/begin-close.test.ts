import { describe, expect, it } from "vitest";
import { createContextManager } from "../engine/create-context-manager.js";
import { ContextStoreUnavailableError } from "./store-errors.js";
import { MemoryMessageStore } from "./memory-message-store.js";
import type { StoreUpdate } from "./message-store.js";

/**
 * A shared store whose next sync hangs, as one frozen on its network would, until `beginClose()` gives it
 * up: the order of the calls is what the manager's close() owes such a store.
 */
class FreezingStore extends MemoryMessageStore {
  readonly calls: string[] = [];
  isFrozen = false;
  private giveUp: ((error: Error) => void) | undefined;

  sync(): Promise<StoreUpdate> {
    if (!this.isFrozen) return Promise.resolve({ kind: "unchanged" });
    this.calls.push("sync (frozen)");
    return new Promise((_, reject) => (this.giveUp = reject));
  }

  beginClose(): void {
    this.calls.push("beginClose");
    this.giveUp?.(new ContextStoreUnavailableError(this.location, { cause: new Error("given up at close()") }));
  }

  override close(): Promise<void> {
    this.calls.push("close");
    return super.close();
  }
}

describe("MessageStore.beginClose", () => {
  it("should be called as the manager's close() begins, before it waits for a read frozen in flight (regression)", async () => {
    const store = new FreezingStore("session");
    const manager = await createContextManager({ store, tokenizer: "estimate" });
    await manager.addMessage({ role: "user", content: "before" });
    store.isFrozen = true;
    const read = manager.getMessages().then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setImmediate(resolve));
    // Without beginClose, this close() would wait for the frozen read forever.
    await manager.close();
    expect(store.calls).toEqual(["sync (frozen)", "beginClose", "close"]);
    expect(await read).toMatchObject({ code: expect.stringMatching(/^CONTEXT_/) });
  });
});
