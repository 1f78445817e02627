import { appendFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { CONTEXT_EVENTS, ContextConfigError, createCoordinator, mountPlan } from "@ctxkit/core";
import { ContextEngine, loadModule } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import { userMessage } from "@ctxkit/core/testing";
import { useTempDirectories } from "../test/temp-directory.js";
import { ContextLockedError } from "./errors.js";
import * as persistentModule from "./index.js";

const { directory } = useTempDirectories();

describe("the module surface", () => {
  it("should export meta, mount and configSchema in the shape loadModule accepts", async () => {
    expect(persistentModule.meta).toEqual({ type: "context", name: "context-persistent" });
    expect(typeof persistentModule.configSchema.safeParse).toBe("function");
    await expect(loadModule(join(import.meta.dirname, "index.ts"))).resolves.toMatchObject({ meta: persistentModule.meta });
  });

  describe("mount", () => {
    it("should mount the manager at context and announce its events on observability.events", async () => {
      const coordinator = createCoordinator();
      const cleanup = await persistentModule.mount(coordinator, { storagePath: await directory(), tokenizer: "estimate" });
      expect(coordinator.get("context")).toBeInstanceOf(ContextEngine);
      expect(await coordinator.collectContributions("observability.events")).toEqual([[...CONTEXT_EVENTS]]);
      await cleanup();
    });

    it("should give the mounted manager its own type through get<PersistentContextManager>, with no cast", async () => {
      const coordinator = createCoordinator();
      const storagePath = await directory();
      const cleanup = await persistentModule.mount(coordinator, { storagePath, sessionId: "typed", tokenizer: "estimate" });
      const context = coordinator.get<persistentModule.PersistentContextManager>("context")!;
      expect(context.isResumed).toBe(false);
      expect(context.sessionId).toBe("typed");
      await context.close();
      await cleanup();
    });

    it("should require a config in the types, as it does at run time (regression)", async () => {
      // @ts-expect-error storagePath is required: mount needs a config.
      const mounting = persistentModule.mount(createCoordinator());
      await expect(mounting).rejects.toThrow(/storagePath: required/);
    });

    it("should send the events emitted while opening to the coordinator's hooks", async () => {
      const folder = await directory();
      const first = createCoordinator();
      const cleanupFirst = await persistentModule.mount(first, { storagePath: folder, sessionId: "s", tokenizer: "estimate" });
      await first.get("context")!.addMessage(userMessage("kept"));
      await cleanupFirst();
      await appendFile(join(folder, "s.jsonl"), '{"v":1,"ty');

      const coordinator = createCoordinator();
      const heard: unknown[] = [];
      coordinator.hooks.register("context:recover", (_event, payload) => void heard.push(payload));
      const cleanup = await persistentModule.mount(coordinator, { storagePath: folder, sessionId: "s", tokenizer: "estimate" });
      expect(heard).toEqual([{ file: join(folder, "s.jsonl"), droppedBytes: 10 }]);
      await cleanup();
    });

    it("should return a cleanup that unmounts, closes and releases the lock, safe to call twice", async () => {
      const folder = await directory();
      const coordinator = createCoordinator();
      const config = { storagePath: folder, sessionId: "s", tokenizer: "estimate" as const };
      const cleanup = await persistentModule.mount(coordinator, config);
      await coordinator.get("context")!.addMessage(userMessage("hi"));
      await expect(persistentModule.mount(createCoordinator(), config)).rejects.toBeInstanceOf(ContextLockedError);
      await Promise.all([cleanup(), cleanup()]);
      expect(coordinator.get("context")).toBeUndefined();
      expect(await readdir(folder)).toEqual(["s.jsonl"]);
      const again = await persistentModule.mount(createCoordinator(), config);
      await again();
    });

    it("should reject every bad key at once, in one ContextConfigError, before opening anything", async () => {
      const error = await persistentModule
        .mount(createCoordinator(), { durability: "sometimes", lock: "yes", bogus: 1 } as never)
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ContextConfigError);
      const paths = (error as ContextConfigError).issues.map((issue) => issue.path).sort();
      expect(paths).toEqual(["bogus", "durability", "lock", "storagePath"]);
    });

    it("should be mountable from a mount plan", async () => {
      const coordinator = createCoordinator();
      const folder = await directory();
      const manager = await mountPlan(coordinator, {
        context: { module: join(import.meta.dirname, "index.ts"), config: { storagePath: folder, tokenizer: "estimate" } },
      });
      await manager.addMessage(userMessage("planned"));
      expect(await manager.getMessages()).toEqual([userMessage("planned")]);
      await coordinator.cleanup();
      expect((await readdir(folder)).filter((file) => file.endsWith(".lock"))).toEqual([]);
    });
  });
});
