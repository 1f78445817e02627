import { readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDirectories } from "../test/temp-directory.js";
import { ContextLockedError } from "./errors.js";
import { acquireSessionLock } from "./session-lock.js";

const { directory } = useTempDirectories();

/** A pid no process has: above the kernel's pid_max (4 194 304 at most). */
const DEAD_PID = 4_194_305 + 1_000;

async function lockPath(): Promise<string> {
  return join(await directory(), "session.jsonl.lock");
}

describe("acquireSessionLock", () => {
  it("should write this process's pid and host into the lock file, and remove it on release", async () => {
    const file = await lockPath();
    const lock = await acquireSessionLock(file, "session.jsonl");
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ pid: process.pid, hostname: hostname() });
    await lock.release();
    await lock.release();
    await expect(readFile(file)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("should refuse a second writer while the first holds the lock, naming the holder", async () => {
    const file = await lockPath();
    const lock = await acquireSessionLock(file, "session.jsonl");
    const error = await acquireSessionLock(file, "session.jsonl").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContextLockedError);
    expect(error).toMatchObject({ code: "CONTEXT_LOCKED", lockFile: file, owner: { pid: process.pid } });
    await lock.release();
    await (await acquireSessionLock(file, "session.jsonl")).release();
  });

  it("should take over a lock whose process is dead", async () => {
    const file = await lockPath();
    await writeFile(file, JSON.stringify({ pid: DEAD_PID, hostname: hostname(), token: "stale" }));
    const lock = await acquireSessionLock(file, "session.jsonl");
    expect(JSON.parse(await readFile(file, "utf8"))).toMatchObject({ pid: process.pid });
    await lock.release();
  });

  it("should take over a lock naming this process's pid that this process does not hold (left by an earlier process with the same pid)", async () => {
    const file = await lockPath();
    await writeFile(file, JSON.stringify({ pid: process.pid, hostname: hostname(), token: "earlier-life" }));
    const lock = await acquireSessionLock(file, "session.jsonl");
    expect(JSON.parse(await readFile(file, "utf8")).token).not.toBe("earlier-life");
    await lock.release();
  });

  it("should treat a lock from another host, or one it cannot read, as held: it cannot check them", async () => {
    const file = await lockPath();
    await writeFile(file, JSON.stringify({ pid: DEAD_PID, hostname: "elsewhere.example", token: "remote" }));
    await expect(acquireSessionLock(file, "session.jsonl")).rejects.toMatchObject({ owner: { hostname: "elsewhere.example" } });
    await writeFile(file, "not json");
    await expect(acquireSessionLock(file, "session.jsonl")).rejects.toBeInstanceOf(ContextLockedError);
  });

  it("should not remove a lock that someone else took over after judging this one stale", async () => {
    const file = await lockPath();
    const lock = await acquireSessionLock(file, "session.jsonl");
    await writeFile(file, JSON.stringify({ pid: DEAD_PID, hostname: hostname(), token: "someone-else" }));
    await lock.release();
    expect(JSON.parse(await readFile(file, "utf8")).token).toBe("someone-else");
  });

  it("should leave no staged or moved-aside files behind", async () => {
    const file = await lockPath();
    await writeFile(file, JSON.stringify({ pid: DEAD_PID, hostname: hostname(), token: "stale" }));
    const lock = await acquireSessionLock(file, "session.jsonl");
    await lock.release();
    expect(await readdir(join(file, ".."))).toEqual([]);
  });
});
