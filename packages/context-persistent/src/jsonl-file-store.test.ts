import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { assistantMessage, userMessage } from "@ctxkit/core/testing";
import { useTempDirectories } from "../test/temp-directory.js";
import { ContextClosedError, ContextLockedError } from "./errors.js";
import { JsonlFileStore, type JsonlFileStoreOptions } from "./jsonl-file-store.js";
import type { Durability } from "./message-store.js";

const { directory } = useTempDirectories();

async function openStore(options: Partial<JsonlFileStoreOptions> = {}) {
  const store = new JsonlFileStore({ directory: options.directory ?? (await directory()), sessionId: "session", ...options });
  await store.open();
  const stored = await store.load();
  return { store, stored };
}

const records = async (file: string): Promise<Array<Record<string, unknown>>> =>
  (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("JsonlFileStore", () => {
  it("should keep one journal per session, <directory>/<sessionId>.jsonl, creating the folder", async () => {
    const folder = join(await directory(), "nested", "sessions");
    const { store } = await openStore({ directory: folder });
    await store.append(userMessage("hi"));
    expect(store.location).toBe(join(folder, "session.jsonl"));
    expect(await readdir(folder)).toEqual(["session.jsonl", "session.jsonl.lock"]);
    await store.close();
    expect(await readdir(folder)).toEqual(["session.jsonl"]);
  });

  it("should create the journal readable by its owner only, and keep it so across rewrites", async () => {
    const folder = await directory();
    const { store } = await openStore({ directory: folder });
    await store.append(userMessage("a secret"));
    expect((await stat(join(folder, "session.jsonl"))).mode & 0o777).toBe(0o600);
    await store.replace([userMessage("another secret")], new Map());
    expect((await stat(join(folder, "session.jsonl"))).mode & 0o777).toBe(0o600);
    await store.close();
  });

  it("should not create the journal before the first write", async () => {
    const folder = await directory();
    const { store } = await openStore({ directory: folder });
    await store.close();
    expect(await readdir(folder)).toEqual([]);
  });

  describe.each(["always", "batch", "none"] satisfies Durability[])("durability %s", (durability) => {
    it("should give back, after reopening, what was appended, in order, with the strategy state", async () => {
      const folder = await directory();
      const { store } = await openStore({ directory: folder, durability });
      const messages: Message[] = Array.from({ length: 20 }, (_, index) => userMessage(`message ${index}`));
      await Promise.all([
        ...messages.slice(0, 10).map((message) => store.append(message)),
        store.writeState({ strategy: "summary", key: "checkpoint", value: { through: 9 } }),
        ...messages.slice(10).map((message) => store.append(message)),
      ]);
      await store.close();
      const { store: reopened, stored } = await openStore({ directory: folder, durability });
      expect(stored.messages).toEqual(messages);
      expect(stored.state.get("summary")?.get("checkpoint")).toEqual({ through: 9 });
      await reopened.close();
    });
  });

  describe("replace and clear", () => {
    it("should rewrite the journal as a header, the state, then the messages, and keep appending after it", async () => {
      const folder = await directory();
      const { store } = await openStore({ directory: folder });
      await store.append(userMessage("before"));
      const state = new Map([["summary", new Map<string, unknown>([["checkpoint", 1]])]]);
      await store.replace([userMessage("one"), assistantMessage("two")], state);
      await store.append(userMessage("after"));
      await store.close();
      const lines = await records(join(folder, "session.jsonl"));
      expect(lines.map((line) => line.type)).toEqual(["header", "state", "add", "add", "add"]);
      expect(lines[0]).toMatchObject({ v: 1, sessionId: "session", reason: "set" });
      const { store: reopened, stored } = await openStore({ directory: folder });
      expect(stored.messages).toEqual([userMessage("one"), assistantMessage("two"), userMessage("after")]);
      expect(stored.state).toEqual(state);
      await reopened.close();
    });

    it("should empty the history on clear, keeping the state given", async () => {
      const folder = await directory();
      const { store } = await openStore({ directory: folder });
      await store.append(userMessage("before"));
      await store.clear(new Map());
      await store.close();
      expect(await records(join(folder, "session.jsonl"))).toEqual([expect.objectContaining({ type: "header", reason: "clear" })]);
    });
  });

  describe("append times", () => {
    it("should report when the newest message was appended after a restart, and no time for a journal written without them", async () => {
      const folder = await directory();
      const first = await openStore({ directory: folder });
      expect(first.stored.lastAddedAt).toBeUndefined();
      await first.store.append(userMessage("one"));
      const before = Date.now();
      await first.store.append(userMessage("two"));
      const after = Date.now();
      await first.store.close();
      const reopened = await openStore({ directory: folder });
      expect(reopened.stored.lastAddedAt).toBeGreaterThanOrEqual(before);
      expect(reopened.stored.lastAddedAt).toBeLessThanOrEqual(after);
      await reopened.store.close();
      const file = join(folder, "session.jsonl");
      const lines = (await readFile(file, "utf8")).split("\n").map((line) => line.replace(/"at":\d+,/, ""));
      await writeFile(file, lines.join("\n"));
      const old = await openStore({ directory: folder });
      expect(old.stored.messages).toEqual([userMessage("one"), userMessage("two")]);
      expect(old.stored.lastAddedAt).toBeUndefined();
      await old.store.close();
    });
  });

  describe("a torn final record", () => {
    it("should be cut off the file at load, so later appends start on a clean line", async () => {
      const folder = await directory();
      const file = join(folder, "session.jsonl");
      const whole = `${JSON.stringify({ v: 1, type: "add", message: userMessage("kept") })}\n`;
      await writeFile(file, `${whole}{"v":1,"type":"ad`);
      const { store, stored } = await openStore({ directory: folder });
      expect(stored.droppedBytes).toBe(17);
      expect(await readFile(file, "utf8")).toBe(whole);
      await store.append(userMessage("next"));
      await store.close();
      const { store: reopened, stored: again } = await openStore({ directory: folder });
      expect(again.messages).toEqual([userMessage("kept"), userMessage("next")]);
      expect(again.droppedBytes).toBe(0);
      await reopened.close();
    });
  });

  describe("a whole final record without its newline", () => {
    it("should be kept, and its line ended, so later appends start on a clean line", async () => {
      const folder = await directory();
      const file = join(folder, "session.jsonl");
      const last = JSON.stringify({ v: 1, type: "add", message: userMessage("hand-written") });
      await writeFile(file, last);
      const { store, stored } = await openStore({ directory: folder });
      expect(stored).toMatchObject({ messages: [userMessage("hand-written")], droppedBytes: 0 });
      expect(await readFile(file, "utf8")).toBe(`${last}\n`);
      await store.append(userMessage("next"));
      await store.close();
      const { store: reopened, stored: again } = await openStore({ directory: folder });
      expect(again.messages).toEqual([userMessage("hand-written"), userMessage("next")]);
      await reopened.close();
    });
  });

  describe("locking", () => {
    it("should refuse a second store on the same session until the first is closed", async () => {
      const folder = await directory();
      const { store } = await openStore({ directory: folder });
      await expect(openStore({ directory: folder })).rejects.toBeInstanceOf(ContextLockedError);
      await store.close();
      const { store: second } = await openStore({ directory: folder });
      await second.close();
    });

    it("should take no lock when lock is false", async () => {
      const folder = await directory();
      const { store } = await openStore({ directory: folder, lock: false });
      await store.append(userMessage("hi"));
      expect(await readdir(folder)).toEqual(["session.jsonl"]);
      await store.close();
    });
  });

  describe("lifecycle", () => {
    it("should reject writes after close, and close twice without error", async () => {
      const { store } = await openStore();
      await store.close();
      await store.close();
      await expect(store.append(userMessage("late"))).rejects.toBeInstanceOf(ContextClosedError);
    });

    it("should reject writes before load, and a second open", async () => {
      const store = new JsonlFileStore({ directory: await directory(), sessionId: "session" });
      await store.open();
      await expect(store.append(userMessage("early"))).rejects.toMatchObject({ code: "CONTEXT_ARGUMENT", operation: "JsonlFileStore" });
      await expect(store.append(userMessage("early"))).rejects.toThrow("call open() and load()");
      await expect(store.open()).rejects.toMatchObject({ code: "CONTEXT_ARGUMENT", operation: "JsonlFileStore.open" });
      await expect(store.open()).rejects.toThrow("already opened");
      await store.close();
    });

    it("should remove a staged rewrite left by a crash when it opens", async () => {
      const folder = await directory();
      await writeFile(join(folder, "session.jsonl.rewrite"), "half a rewrite");
      const { store } = await openStore({ directory: folder });
      expect(await readdir(folder)).toEqual(["session.jsonl.lock"]);
      await store.close();
    });
  });
});
