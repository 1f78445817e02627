import { mkdir, readFile, readdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ContextConfigError } from "@ctxkit/core";
import { userMessage } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { useTempDirectories } from "../test/temp-directory.js";
import { createPersistentContext } from "./create-persistent-context.js";
import { ContextStoreAccessError } from "./errors.js";
import { toAccessError } from "./store-access.js";

const { directory } = useTempDirectories();

const open = (storagePath: string) => createPersistentContext({ storagePath, sessionId: "chat", tokenizer: "estimate" });

describe("a journal that is a symbolic link", () => {
  it("should refuse to open, and leave the file the link points at untouched (regression: messages were appended to it)", async () => {
    const folder = await directory();
    const foreign = join(folder, "foreign.txt");
    await writeFile(foreign, "someone else's file\n");
    await symlink(foreign, join(folder, "chat.jsonl"));
    await expect(open(folder)).rejects.toBeInstanceOf(ContextStoreAccessError);
    expect(await readFile(foreign, "utf8")).toBe("someone else's file\n");
  });

  it("should refuse a dangling link, creating no file where it points (regression)", async () => {
    const folder = await directory();
    const elsewhere = join(await directory(), "conversation.jsonl");
    await symlink(elsewhere, join(folder, "chat.jsonl"));
    await expect(open(folder)).rejects.toThrow(/symbolic link/);
    expect(await readdir(join(elsewhere, ".."))).toEqual([]);
  });
});

describe("a planted staging file", () => {
  it("should never make clear() or setMessages() overwrite what a .rewrite link points at (regression)", async () => {
    const folder = await directory();
    const victim = join(folder, "victim.txt");
    await writeFile(victim, "keep me\n");
    const manager = await open(folder);
    await manager.addMessage(userMessage("hello"));
    await symlink(victim, join(folder, "chat.jsonl.rewrite"));
    await manager.clear();
    await symlink(victim, join(folder, "chat.jsonl.rewrite"));
    await manager.setMessages([userMessage("again")]);
    await manager.close();
    expect(await readFile(victim, "utf8")).toBe("keep me\n");
    expect(await readFile(join(folder, "chat.jsonl"), "utf8")).toContain("again");
  });
});

describe("storagePath", () => {
  it("should say a file is in the way, with a typed error (regression: raw EEXIST/ENOTDIR)", async () => {
    const file = join(await directory(), "not-a-folder");
    await writeFile(file, "");
    await expect(open(file)).rejects.toBeInstanceOf(ContextStoreAccessError);
    await expect(open(join(file, "below"))).rejects.toThrow(/point storagePath at a folder/);
  });

  it("should refuse a NUL byte, and say that storagePath is required (regression: raw TypeError)", async () => {
    await expect(open("sessions\0evil")).rejects.toThrow(ContextConfigError);
    await expect(open("sessions\0evil")).rejects.toThrow(/NUL byte/);
    await expect(createPersistentContext({} as { storagePath: string })).rejects.toThrow(/storagePath: required/);
  });

  it("should refuse a journal path that is a folder", async () => {
    const folder = await directory();
    await mkdir(join(folder, "chat.jsonl"));
    await expect(open(folder)).rejects.toThrow(/not a regular file/);
  });
});

describe("toAccessError", () => {
  it("should turn the file system's read-only and permission failures into a sentence that says what to do", () => {
    for (const [code, words] of [
      ["EROFS", "read-only"],
      ["EACCES", "may not write"],
      ["ENOSPC", "disk is full"],
    ] as const) {
      const error = toAccessError(Object.assign(new Error(code), { code }), "/data/sessions");
      expect(error).toBeInstanceOf(ContextStoreAccessError);
      expect((error as Error).message).toContain(words);
    }
    const unknown = new Error("something else");
    expect(toAccessError(unknown, "/data")).toBe(unknown);
  });
});
