import { appendFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import type { Strategy } from "@ctxkit/core/kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { assistantMessage, sampleTurn, systemMessage, userMessage } from "@ctxkit/core/testing";
import { useTempDirectories } from "../test/temp-directory.js";
import { ContextStoreCorruptError } from "./errors.js";
import { openSession } from "../test/open-session.js";

const { directory } = useTempDirectories();

afterEach(() => {
  vi.restoreAllMocks();
});

const history: Message[] = [
  systemMessage("You are terse."),
  ...Array.from({ length: 12 }, (_, index) => sampleTurn(index)).flat(),
  userMessage("and now?"),
];

describe("resume", () => {
  it("should give back the same history and, for the same budget, the same view as a fresh instance given that history", async () => {
    const folder = await directory();
    const { manager: live } = await openSession(folder);
    for (const message of history) await live.addMessage(message);
    const liveView = await live.getMessagesForRequest({ tokenBudget: 100_000 });
    await live.close();

    const { manager: resumed } = await openSession(folder);
    expect(resumed.isResumed).toBe(true);
    expect(await resumed.getMessages()).toEqual(history);
    expect(await resumed.getMessagesForRequest({ tokenBudget: 100_000 })).toEqual(liveView);
    for (const tokenBudget of [2_000, 5_000]) {
      const fresh = createSimpleContext({ tokenizer: "estimate" });
      await fresh.setMessages(history);
      const { manager: again } = await openSession(await directory());
      await again.setMessages(history);
      const expected = await fresh.getMessagesForRequest({ tokenBudget });
      expect(await again.getMessagesForRequest({ tokenBudget })).toEqual(expected);
      await again.close();
    }
    await resumed.close();
  });

  describe("setMessages", () => {
    it("should be ignored when the journal held messages at open, and say so in an event and the log", async () => {
      const folder = await directory();
      const { manager: live } = await openSession(folder);
      for (const message of history) await live.addMessage(message);
      await live.close();
      const before = await readFile(join(folder, "session.jsonl"));
      const log = vi.spyOn(console, "info").mockImplementation(() => {});

      const { manager: resumed, events } = await openSession(folder);
      const transcript = history.filter((message) => message.role !== "system");
      await resumed.setMessages(transcript);
      expect(await resumed.getMessages()).toEqual(history);
      expect(events).toContainEqual({
        event: "context:set_messages_ignored",
        payload: { file: join(folder, "session.jsonl"), storedCount: history.length, givenCount: transcript.length },
      });
      expect(log).toHaveBeenCalledWith(expect.stringContaining("setMessages(49 messages) ignored"));
      await resumed.close();
      expect((await readFile(join(folder, "session.jsonl"))).equals(before)).toBe(true);
    });

    it("should be accepted and written on a new session", async () => {
      const folder = await directory();
      const { manager } = await openSession(folder);
      await manager.addMessage(userMessage("replaced"));
      await manager.setMessages(history);
      await manager.close();
      const { manager: resumed } = await openSession(folder);
      expect(await resumed.getMessages()).toEqual(history);
      await resumed.close();
    });

    it("should be accepted again after clear()", async () => {
      const folder = await directory();
      const { manager: live } = await openSession(folder);
      await live.addMessage(userMessage("old"));
      await live.close();
      const { manager: resumed } = await openSession(folder);
      await resumed.clear();
      expect(resumed.isResumed).toBe(false);
      await resumed.setMessages([userMessage("new")]);
      expect(await resumed.getMessages()).toEqual([userMessage("new")]);
      await resumed.close();
    });
  });

  describe("strategy state", () => {
    /** A strategy that counts its runs in its state store, as a summary strategy keeps its checkpoint. */
    const countingStrategy: Strategy = {
      name: "counting",
      async apply(view, context) {
        await context.state.set("runs", (context.state.get<number>("runs") ?? 0) + 1);
        return { view, applied: false };
      },
    };

    it("should survive a restart, so a resumed session continues from its checkpoint", async () => {
      const folder = await directory();
      const config = { strategies: [countingStrategy, "truncate" as const] };
      const { manager: live } = await openSession(folder, config);
      for (const message of history) await live.addMessage(message);
      await live.compact({ tokenBudget: 3_000 });
      await live.close();

      const { manager: resumed } = await openSession(folder, config);
      await resumed.compact({ tokenBudget: 3_000 });
      await resumed.close();
      const records = (await readFile(join(folder, "session.jsonl"), "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      // Without the restored state the resumed run would count from 0 again and record 1.
      // The manager keeps its own state records beside the strategy's, under reserved names in parentheses: each
      // compaction's receipt under (compactions), and, for undo, what it replaced of the strategies' state under
      // (compaction-state). Only the strategy's own records are read here.
      const runs = records.filter((record) => record.type === "state" && record.strategy === "counting").map((record) => record.value);
      expect(runs).toEqual([1, 2]);
    });

    it("should be kept when setMessages rewrites the journal", async () => {
      const folder = await directory();
      const config = { strategies: [countingStrategy, "truncate" as const] };
      const { manager: live } = await openSession(folder, config);
      await live.setMessages(history);
      await live.compact({ tokenBudget: 3_000 });
      await live.setMessages(history);
      await live.close();
      const { manager: resumed } = await openSession(folder, config);
      await resumed.compact({ tokenBudget: 3_000 });
      await resumed.close();
      const records = (await readFile(join(folder, "session.jsonl"), "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      const runs = records.filter((record) => record.type === "state" && record.strategy === "counting").map((record) => record.value);
      expect(runs).toEqual([1, 2]);
    });
  });

  describe("recovery at open", () => {
    it("should cut a torn final record, report it through context:recover, and keep the rest", async () => {
      const folder = await directory();
      const { manager: live } = await openSession(folder);
      await live.addMessage(userMessage("kept"));
      await live.close();
      await appendFile(join(folder, "session.jsonl"), '{"v":1,"type":"add","message":{"role":"ass');
      const { manager: resumed, events } = await openSession(folder);
      expect(events).toEqual([{ event: "context:recover", payload: { file: join(folder, "session.jsonl"), droppedBytes: 42 } }]);
      expect(await resumed.getMessages()).toEqual([userMessage("kept")]);
      await resumed.addMessage(assistantMessage("next"));
      await resumed.close();
      expect((await readFile(join(folder, "session.jsonl"), "utf8")).trim().split("\n")).toHaveLength(2);
    });

    it("should fail on a corrupt middle line, leave the file unchanged byte for byte, and release the lock", async () => {
      const folder = await directory();
      const file = join(folder, "session.jsonl");
      const { manager: live } = await openSession(folder);
      for (const message of [userMessage("one"), userMessage("two"), userMessage("three")]) await live.addMessage(message);
      await live.close();
      const lines = (await readFile(file, "utf8")).split("\n");
      lines[1] = lines[1]!.replace('"role"', '"rol');
      await writeFile(file, lines.join("\n"));
      const before = await readFile(file);

      const error = await openSession(folder).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextStoreCorruptError);
      expect(error).toMatchObject({ file, line: 2 });
      expect((await readFile(file)).equals(before)).toBe(true);
      expect(await readdir(folder)).toEqual(["session.jsonl"]);
    });
  });
});
