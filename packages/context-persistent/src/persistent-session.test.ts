import { open, readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { ContextValidationError, createContextManager, type Message } from "@ctxkit/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { countingStore } from "../test/counting-store.js";
import { sampleTurn, userMessage } from "@ctxkit/core/testing";
import { useTempDirectories } from "../test/temp-directory.js";
import { createPersistentContext } from "./create-persistent-context.js";
import { ContextClosedError } from "./errors.js";
import { JsonlFileStore } from "./jsonl-file-store.js";
import type { MessageStore } from "./message-store.js";
import { openSession } from "../test/open-session.js";

const { directory } = useTempDirectories();

afterEach(() => {
  vi.restoreAllMocks();
});

/** FileHandle is not exported, so its prototype is taken from a real handle. */
async function spyOnFileHandles(folder: string) {
  const handle = await open(join(folder, "probe"), "w");
  const prototype = Object.getPrototypeOf(handle) as { sync(): Promise<void>; write(...args: unknown[]): Promise<unknown> };
  await handle.close();
  return { syncs: vi.spyOn(prototype, "sync"), writes: vi.spyOn(prototype, "write") };
}

describe("a persistent session", () => {
  describe("addMessage", () => {
    it("should validate before anything is written, and leave the state unchanged", async () => {
      const folder = await directory();
      const { manager } = await openSession(folder);
      await expect(manager.addMessage({ role: "user" } as unknown as Message)).rejects.toBeInstanceOf(ContextValidationError);
      await expect(
        manager.addMessage({ role: "user", content: "hi", metadata: { at: new Date(0) } } as unknown as Message),
      ).rejects.toThrow("metadata.at: a Date cannot be stored as JSON");
      expect(await manager.getMessages()).toEqual([]);
      expect(await readdir(folder)).toEqual(["session.jsonl.lock"]);
      await manager.close();
    });

    it("should land concurrent adds in call order, sharing one write and one fsync under batch", async () => {
      const folder = await directory();
      const { manager } = await openSession(folder, { durability: "batch" });
      const { syncs, writes } = await spyOnFileHandles(folder);
      const messages = Array.from({ length: 50 }, (_, index) => userMessage(`message ${index}`));
      await Promise.all(messages.map((message) => manager.addMessage(message)));
      // The first add may start its batch alone; every other one waits for the next.
      expect(syncs.mock.calls.length).toBeLessThanOrEqual(3);
      expect(writes.mock.calls.length).toBeLessThanOrEqual(2);
      expect(await manager.getMessages()).toEqual(messages);
      await manager.close();
    });

    it("should give every add its own fsync under always", async () => {
      const folder = await directory();
      const { manager } = await openSession(folder, { durability: "always" });
      const { syncs } = await spyOnFileHandles(folder);
      await Promise.all(Array.from({ length: 10 }, (_, index) => manager.addMessage(userMessage(`message ${index}`))));
      // Plus one for the folder, which now names the new journal.
      expect(syncs.mock.calls.length).toBe(11);
      await manager.close();
    });

    it("should have the record on disk by the time it resolves", async () => {
      const folder = await directory();
      const { manager } = await openSession(folder, { durability: "none" });
      await manager.addMessage(userMessage("hi"));
      expect(await readFile(join(folder, "session.jsonl"), "utf8")).toContain('"content":"hi"');
      await manager.close();
    });
  });

  describe("reads", () => {
    it("should come from memory: after open, only writes reach the store", async () => {
      const folder = await directory();
      const { manager: writer } = await openSession(folder);
      for (const message of [...sampleTurn(1), ...sampleTurn(2)]) await writer.addMessage(message);
      await writer.close();
      const store = countingStore(new JsonlFileStore({ directory: folder, sessionId: "session" }));
      const manager = await createContextManager({ store, tokenizer: "estimate" });
      const before = store.total();
      await manager.getMessages();
      await manager.getMessagesForRequest({ tokenBudget: 1_000 });
      await manager.getMessagesForRequest({ tokenBudget: 100_000 });
      await manager.usage();
      // A compaction is the one thing a request writes, as two state records: what it replaced of the strategies'
      // state, kept for undoCompaction under (compaction-state) (an empty list when it replaced nothing, so such a
      // compaction stays undoable), then its receipt under (compactions). Each request makes at most one.
      expect(store.total() - store.calls.writeState).toBe(before);
      const writes = store.calls.writeState;
      expect(store.calls.load).toBe(1);
      const compactions = await manager.listCompactions();
      expect(compactions.length).toBeLessThanOrEqual(2);
      expect(writes).toBe(2 * compactions.length);
      await manager.close();
    });
  });

  describe("a failed write", () => {
    /** A real store whose third append fails, as a full disk would. */
    function failingStore(folder: string): MessageStore {
      const store = new JsonlFileStore({ directory: folder, sessionId: "session" });
      let appends = 0;
      return {
        sessionId: store.sessionId,
        location: store.location,
        open: () => store.open(),
        load: () => store.load(),
        append: (message) => (++appends === 3 ? Promise.reject(new Error("ENOSPC: no space left on device")) : store.append(message)),
        writeState: (change) => store.writeState(change),
        replace: (messages, state) => store.replace(messages, state),
        clear: (state) => store.clear(state),
        close: () => store.close(),
      };
    }

    it("should fail its caller and every later operation with ContextClosedError, naming the cause", async () => {
      const folder = await directory();
      const manager = await createContextManager({ store: failingStore(folder), tokenizer: "estimate" });
      const outcomes = await Promise.allSettled([1, 2, 3].map((index) => manager.addMessage(userMessage(`message ${index}`))));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "fulfilled", "rejected"]);
      const failure = (outcomes[2] as PromiseRejectedResult).reason as ContextClosedError;
      expect(failure).toBeInstanceOf(ContextClosedError);
      expect(failure).toMatchObject({ code: "CONTEXT_CLOSED", reason: "write_failed" });
      expect(failure.message).toContain("ENOSPC");
      expect(failure.message).toContain("Open it again");
      await expect(manager.getMessages()).rejects.toMatchObject({ reason: "write_failed" });
      await expect(manager.addMessage(userMessage("later"))).rejects.toMatchObject({ reason: "write_failed" });
      await manager.close();
      const { manager: reopened } = await openSession(folder);
      expect(await reopened.getMessages()).toEqual([userMessage("message 1"), userMessage("message 2")]);
      await reopened.close();
    });
  });

  describe("close", () => {
    it("should let earlier operations finish, release the lock, and refuse later operations", async () => {
      const folder = await directory();
      const { manager } = await openSession(folder, { durability: "none" });
      const adding = manager.addMessage(userMessage("queued before close"));
      await manager.close();
      await adding;
      await manager.close();
      await expect(manager.getMessagesForRequest()).rejects.toMatchObject({ code: "CONTEXT_CLOSED", reason: "closed" });
      expect(await readdir(folder)).toEqual(["session.jsonl"]);
      const { manager: reopened } = await openSession(folder);
      expect(await reopened.getMessages()).toEqual([userMessage("queued before close")]);
      await reopened.close();
    });
  });

  describe("sessions", () => {
    it("should start a new session under a random id when none is given", async () => {
      const folder = await directory();
      const first = await createPersistentContext({ storagePath: folder, tokenizer: "estimate" });
      const second = await createPersistentContext({ storagePath: folder, tokenizer: "estimate" });
      expect(first.sessionId).not.toBe(second.sessionId);
      expect(first.location).toBe(join(folder, `${first.sessionId}.jsonl`));
      expect(first.isResumed).toBe(false);
      await Promise.all([first.close(), second.close()]);
    });

    it("should reject a bad config before touching the disk", async () => {
      const folder = await directory();
      await expect(createPersistentContext({ storagePath: folder, sessionId: "../escape", maxTokens: -1 })).rejects.toMatchObject({
        code: "CONTEXT_CONFIG",
        issues: [expect.objectContaining({ path: "maxTokens" }), expect.objectContaining({ path: "sessionId" })],
      });
      expect(await readdir(folder)).toEqual([]);
    });
  });
});
