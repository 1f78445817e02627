import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectories } from "../test/temp-directory.js";
import { rewriteAtomically, rewriteFileFor } from "./atomic-rewrite.js";

const { directory } = useTempDirectories();

describe("rewriteAtomically", () => {
  it("should replace the file's content with the lines, each ending with a newline, and leave no staged file", async () => {
    const folder = await directory();
    const file = join(folder, "session.jsonl");
    await writeFile(file, "old\n");
    await rewriteAtomically(file, ["one", "two"]);
    expect(await readFile(file, "utf8")).toBe("one\ntwo\n");
    expect(await readdir(folder)).toEqual(["session.jsonl"]);
  });

  it("should write content larger than one chunk whole", async () => {
    const file = join(await directory(), "session.jsonl");
    const lines = Array.from({ length: 3_000 }, (_, index) => `${index}`.padEnd(1_000, "x"));
    await rewriteAtomically(file, lines);
    expect(await readFile(file, "utf8")).toBe(`${lines.join("\n")}\n`);
  });

  it("should leave the old file untouched when the new content cannot be written", async () => {
    const folder = await directory();
    const file = join(folder, "session.jsonl");
    await writeFile(file, "old\n");
    const failing = function* (): Generator<string> {
      yield "new";
      throw new Error("the content failed midway");
    };
    await expect(rewriteAtomically(file, failing())).rejects.toThrow("midway");
    expect(await readFile(file, "utf8")).toBe("old\n");
    expect(await readdir(folder)).toEqual(["session.jsonl"]);
  });

  it("should fail without touching the file when the staged file cannot be created", async () => {
    const folder = await directory();
    const file = join(folder, "session.jsonl");
    await writeFile(file, "old\n");
    await mkdir(join(rewriteFileFor(file), "blocker"), { recursive: true });
    await expect(rewriteAtomically(file, ["new"])).rejects.toThrow();
    expect(await readFile(file, "utf8")).toBe("old\n");
  });
});
