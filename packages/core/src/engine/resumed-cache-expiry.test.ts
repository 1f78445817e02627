// A resumed session's first request measures its pause from when the store says the newest message was added.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Message } from "../messages/message.js";
import type { MessageStore, StoredSession, StoreUpdate } from "../store/message-store.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { sampleTurn, systemMessage, userMessage } from "../testing/index.js";
import { createContextManager } from "./create-context-manager.js";

const BUDGET = 20_000;
const TEN_MINUTES = 10 * 60_000;

/** A store whose session a previous process wrote: 24 turns of ~500 tokens, about 0.6 of the budget, with no request. */
async function writtenEarlier(store: MessageStore): Promise<void> {
  const manager = await createContextManager({ store, tokenizer: "estimate" });
  await manager.addMessage(systemMessage("be brief"));
  for (let turn = 0; turn < 24; turn += 1) for (const message of sampleTurn(turn, 2_000)) await manager.addMessage(message);
  await manager.close();
}

/** A fresh process takes the session up after a pause: one more user message, one request. */
async function resumeAndAsk(store: MessageStore) {
  const manager = await createContextManager({ store, tokenizer: "estimate" });
  await manager.addMessage(userMessage("and now?"));
  await manager.getMessagesForRequest({ tokenBudget: BUDGET });
  const compactions = await manager.listCompactions();
  const usage = await manager.usage();
  await manager.close();
  return { compactions, usage };
}

/** The memory store without its times: a store that records none. */
class TimelessStore extends MemoryMessageStore {
  override async load(): Promise<StoredSession> {
    const { lastAddedAt: _dropped, ...session } = await super.load();
    return session;
  }
}

/** A shared store over the memory store: every message comes back through `sync`, with the time of the newest. */
class SharedMemoryStore extends MemoryMessageStore {
  private seen = 0;
  override async load(): Promise<StoredSession> {
    const session = await super.load();
    this.seen = session.messages.length;
    return session;
  }
  async sync(): Promise<StoreUpdate> {
    const session = await super.load();
    const messages: Message[] = session.messages.slice(this.seen);
    this.seen = session.messages.length;
    if (messages.length === 0) return { kind: "unchanged" };
    return { kind: "appended", messages, ...(session.lastAddedAt === undefined ? {} : { lastAddedAt: session.lastAddedAt }) };
  }
}

describe("a resumed session's pause, from the store's times", () => {
  afterEach(() => void vi.useRealTimers());

  it("should compact a view past half its threshold on the first request after a pause longer than the cache lives", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = new MemoryMessageStore("resumed");
    await writtenEarlier(store);
    vi.setSystemTime(Date.now() + TEN_MINUTES);
    const { compactions } = await resumeAndAsk(store);
    expect(compactions).toHaveLength(1);
    expect(compactions[0]).toMatchObject({ reason: "threshold" });
    expect(compactions[0]!.decision).toMatchObject({ trigger: "cache-expired", rewriteCost: 0, isCacheExpired: true });
    expect(compactions[0]!.tokensBefore).toBeGreaterThan(0.56 * BUDGET);
    expect(compactions[0]!.tokensBefore).toBeLessThanOrEqual(0.92 * BUDGET);
  });

  it("should serve the same view as it is when the store records no times", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = new TimelessStore("timeless");
    await writtenEarlier(store);
    vi.setSystemTime(Date.now() + TEN_MINUTES);
    const { compactions, usage } = await resumeAndAsk(store);
    expect(compactions).toEqual([]);
    expect(usage!.tokens).toBeGreaterThan(0.56 * BUDGET);
  });

  it("should serve the view as it is when the pause was shorter than the cache lives", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = new MemoryMessageStore("recent");
    await writtenEarlier(store);
    vi.setSystemTime(Date.now() + 60_000);
    expect((await resumeAndAsk(store)).compactions).toEqual([]);
  });

  it("should not take its own append, handed back by a shared store's sync, for the session's last activity", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const store = new SharedMemoryStore("shared");
    await writtenEarlier(store);
    vi.setSystemTime(Date.now() + TEN_MINUTES);
    const { compactions } = await resumeAndAsk(store);
    expect(compactions[0]?.decision).toMatchObject({ trigger: "cache-expired" });
  });
});
