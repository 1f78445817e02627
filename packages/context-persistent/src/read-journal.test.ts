import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectories } from "../test/temp-directory.js";
import { ContextStoreCorruptError } from "./errors.js";
import { encodeAdd, encodeHeader, encodeState } from "./journal-record.js";
import { readJournal } from "./read-journal.js";

const { directory } = useTempDirectories();

async function journalWith(text: string): Promise<string> {
  const file = join(await directory(), "session.jsonl");
  await writeFile(file, text);
  return file;
}

const first = { role: "user" as const, content: "first" };
const second = { role: "assistant" as const, content: "second" };

describe("readJournal", () => {
  it("should stop at a line addMessage would refuse, naming it, and leave the file as it was (regression: content [null] opened)", async () => {
    const text = `${encodeAdd(first)}\n{"v":1,"type":"add","message":{"role":"user","content":[null]}}\n${encodeAdd(second)}\n`;
    const file = await journalWith(text);
    const failure = await readJournal(file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ContextStoreCorruptError);
    expect(failure).toMatchObject({ line: 2 });
    expect(await readFile(file, "utf8")).toBe(text);
  });

  it("should report a missing file as a new, empty session", async () => {
    const contents = await readJournal(join(await directory(), "absent.jsonl"));
    expect(contents).toMatchObject({ exists: false, messages: [], validLength: 0, droppedBytes: 0 });
  });

  it("should return the messages in order, deep-frozen, and the latest state of each key", async () => {
    const lines = [
      encodeHeader({ sessionId: "s", rewrittenAt: "2025-01-01T00:00:00.000Z", reason: "set" }),
      encodeAdd(first),
      encodeState({ strategy: "summary", key: "checkpoint", value: 1 }),
      encodeAdd(second),
      encodeState({ strategy: "summary", key: "checkpoint", value: 2 }),
      encodeState({ strategy: "summary", key: "old", value: true }),
      encodeState({ strategy: "summary", key: "old", deleted: true }),
    ];
    const contents = await readJournal(await journalWith(`${lines.join("\n")}\n`));
    expect(contents.messages).toEqual([first, second]);
    expect(Object.isFrozen(contents.messages[0])).toBe(true);
    expect(contents.state).toEqual(new Map([["summary", new Map([["checkpoint", 2]])]]));
    expect(contents.droppedBytes).toBe(0);
  });

  describe("a torn last line", () => {
    it("should be left out and measured, whatever it holds", async () => {
      const whole = `${encodeAdd(first)}\n${encodeAdd(second)}\n`;
      for (const torn of [encodeAdd(second).slice(0, 17), encodeAdd(second).slice(0, -1), "\0\0\0\0", "   ", '{"v":1}']) {
        const contents = await readJournal(await journalWith(whole + torn));
        expect(contents.messages).toEqual([first, second]);
        expect(contents.validLength).toBe(Buffer.byteLength(whole));
        expect(contents.droppedBytes).toBe(Buffer.byteLength(torn));
        expect(contents.lacksFinalNewline).toBe(false);
      }
    });

    it("should be kept when it is a whole record that only lacks its newline", async () => {
      const text = `${encodeAdd(first)}\n${encodeAdd(second)}`;
      const contents = await readJournal(await journalWith(text));
      expect(contents.messages).toEqual([first, second]);
      expect(contents).toMatchObject({ validLength: Buffer.byteLength(text), droppedBytes: 0, lacksFinalNewline: true });
    });

    it("should be cut between the bytes of a multi-byte character without breaking the lines before it", async () => {
      const whole = `${encodeAdd({ role: "user", content: "你好" })}\n`;
      const torn = Buffer.from(encodeAdd({ role: "user", content: "世界" })).subarray(0, 45);
      const file = join(await directory(), "session.jsonl");
      await writeFile(file, Buffer.concat([Buffer.from(whole), torn]));
      const contents = await readJournal(file);
      expect(contents.messages).toEqual([{ role: "user", content: "你好" }]);
      expect(contents.droppedBytes).toBe(45);
    });
  });

  describe("a corrupt line before the last", () => {
    it("should fail, naming the file and the line, and leave the file unchanged byte for byte", async () => {
      const text = `${encodeAdd(first)}\n{"v":1,"type":"add","mess\n${encodeAdd(second)}\n`;
      const file = await journalWith(text);
      const before = await readFile(file);
      const error = await readJournal(file).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextStoreCorruptError);
      expect(error).toMatchObject({ code: "CONTEXT_STORE_CORRUPT", file, line: 2 });
      expect((error as Error).message).toContain(`${file} is corrupt at line 2`);
      expect((await readFile(file)).equals(before)).toBe(true);
    });

    it("should treat a whole but unreadable final line (it ends with a newline) as corruption, not as a torn write", async () => {
      const error = await readJournal(await journalWith(`${encodeAdd(first)}\ngarbage\n`)).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ line: 2 });
    });

    it("should reject a header anywhere but on the first line", async () => {
      const header = encodeHeader({ sessionId: "s", rewrittenAt: "2025-01-01T00:00:00.000Z", reason: "clear" });
      await expect(readJournal(await journalWith(`${encodeAdd(first)}\n${header}\n`))).rejects.toMatchObject({ line: 2 });
    });
  });

  it("should skip blank lines", async () => {
    const contents = await readJournal(await journalWith(`${encodeAdd(first)}\n\n  \n${encodeAdd(second)}\n`));
    expect(contents.messages).toEqual([first, second]);
  });
});
