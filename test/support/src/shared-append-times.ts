// When the newest message was appended, as every shared store records it: the same tests for each.
import { randomUUID } from "node:crypto";
import { createContextManager, type Message } from "@ctxkit/core";
import type { MessageStore, StoreUpdate } from "@ctxkit/core/kit";
import { sampleTurn, systemMessage, userMessage } from "@ctxkit/core/testing";
import { expect, it } from "vitest";

export interface AppendTimesSubject {
  /** A store on the shared session `sessionId`, not yet opened, as a new worker makes one. */
  readonly storeFor: (sessionId: string) => MessageStore;
  /** Writes `time` (epoch ms) as the session's newest append time, behind the store's back, as an older worker left it. */
  readonly setLastAddedAt: (sessionId: string, time: number) => Promise<void>;
}

/** The budget the resumed session is asked for: its history holds more than half the default threshold of it. */
const BUDGET = 20_000;

export function itRecordsAppendTimes({ storeFor, setLastAddedAt }: AppendTimesSubject): void {
  const opened = async (sessionId: string) => {
    const store = storeFor(sessionId);
    await store.open();
    return { store, session: await store.load() };
  };
  const appendedAt = (update: StoreUpdate) => (update.kind === "appended" ? update.lastAddedAt : undefined);

  it("should report when the newest message was appended, to another worker's sync and after a reopen, and none after a replace", async () => {
    const sessionId = randomUUID();
    const writer = await opened(sessionId);
    const reader = await opened(sessionId);
    expect(writer.session.lastAddedAt).toBeUndefined();
    const before = Date.now();
    await writer.store.append(userMessage("timed"));
    const after = Date.now();
    const update = await reader.store.sync!();
    expect(update).toMatchObject({ kind: "appended" });
    const synced = appendedAt(update);
    expect(synced).toBeGreaterThanOrEqual(before);
    expect(synced).toBeLessThanOrEqual(after);
    await Promise.all([writer.store.close(), reader.store.close()]);
    const reopened = await opened(sessionId);
    expect(reopened.session.lastAddedAt).toBe(synced);
    await reopened.store.replace([userMessage("set")] as Message[], new Map());
    await reopened.store.close();
    const replaced = await opened(sessionId);
    expect(replaced.session.lastAddedAt).toBeUndefined();
    await replaced.store.close();
  });

  it("should compact a resumed session's view past half its threshold on its first request after a pause longer than the cache lives", async () => {
    const sessionId = randomUUID();
    const earlier = await createContextManager({ store: storeFor(sessionId), tokenizer: "estimate" });
    const turns = Array.from({ length: 24 }, (_, turn) => sampleTurn(turn, 2_000)).flat();
    await earlier.setMessages([systemMessage("be brief"), ...turns]);
    await earlier.close();
    await setLastAddedAt(sessionId, Date.now() - 600_000);
    // A fresh worker for the next turn: its own append comes back through sync, and is not taken for the session's last activity.
    const resumed = await createContextManager({ store: storeFor(sessionId), tokenizer: "estimate" });
    await resumed.addMessage(userMessage("and now?"));
    await resumed.getMessagesForRequest({ tokenBudget: BUDGET });
    const [receipt] = await resumed.listCompactions();
    await resumed.close();
    expect(receipt?.decision).toMatchObject({ trigger: "cache-expired", isCacheExpired: true });
  });
}
