import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { userMessage } from "@ctxkit/core/testing";
import { fixturesOf } from "@ctxkit/test-support/fixture-process";
import { useTempDirectories } from "../test/temp-directory.js";
import { createPersistentContext } from "./create-persistent-context.js";
import { ContextLockedError } from "./errors.js";

const { startFixture, removeFixtureBundles } = fixturesOf(new URL("../", import.meta.url), ["zod"]);

const { directory } = useTempDirectories();

afterAll(removeFixtureBundles);

describe("the session lock, across real processes", () => {
  it("should refuse this process while another live process holds the session, then take the lock over once it is killed", async () => {
    const folder = await directory();
    const holder = await startFixture("lock-child", ["hold", folder, "s"]);
    try {
      await holder.waitForLine((line) => line === "ready");
      const refused = await createPersistentContext({ storagePath: folder, sessionId: "s", tokenizer: "estimate" }).catch(
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ContextLockedError);
      expect(refused).toMatchObject({ code: "CONTEXT_LOCKED", owner: { pid: holder.child.pid } });
      expect((refused as Error).message).toContain(`process ${holder.child.pid}`);
    } finally {
      holder.child.kill("SIGKILL");
      await holder.exited;
    }
    // The killed holder never removed its lock file: it is stale now, and taken over.
    expect(JSON.parse(await readFile(join(folder, "s.jsonl.lock"), "utf8")).pid).toBe(holder.child.pid);
    const manager = await createPersistentContext({ storagePath: folder, sessionId: "s", tokenizer: "estimate" });
    await manager.addMessage(userMessage("after the takeover"));
    await manager.close();
  });

  it("should refuse a second process while this one holds the session, and let it in once closed", async () => {
    const folder = await directory();
    const manager = await createPersistentContext({ storagePath: folder, sessionId: "s", tokenizer: "estimate" });
    const refused = await startFixture("lock-child", ["try", folder, "s"]);
    expect(JSON.parse(await refused.waitForLine((line) => line.startsWith("{")))).toEqual({
      opened: false,
      name: "ContextLockedError",
      code: "CONTEXT_LOCKED",
      ownerPid: process.pid,
    });
    await refused.exited;
    await manager.close();
    const admitted = await startFixture("lock-child", ["try", folder, "s"]);
    expect(JSON.parse(await admitted.waitForLine((line) => line.startsWith("{")))).toEqual({ opened: true });
    expect(await admitted.exited).toEqual({ code: 0, signal: null });
  });
});
