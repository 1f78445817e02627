import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { createCoordinator } from "../coordinator/create-coordinator.js";
import { contextConfigSchema } from "../engine/context-config.js";
import { ContextConfigError } from "../errors.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import type { StoredSession } from "../store/message-store.js";
import { defineStoreModule } from "./define-store-module.js";

/** A memory store that reports a torn record cut off at open, as a journal does after a crash. */
class TornTailStore extends MemoryMessageStore {
  override async load(): Promise<StoredSession> {
    return { ...(await super.load()), droppedBytes: 7 };
  }
}

const configSchema = z.extend(contextConfigSchema, {
  sessionId: z.string().check(z.minLength(1)),
  tornTail: z._default(z.boolean(), false),
});
const storeConfigs: unknown[] = [];
const module = defineStoreModule({
  name: "context-test",
  configSchema,
  createStore(config) {
    storeConfigs.push(config);
    return config.tornTail ? new TornTailStore(config.sessionId) : new MemoryMessageStore(config.sessionId);
  },
});

describe("defineStoreModule meta and configSchema", () => {
  it("should give the module's meta and its schema", () => {
    expect(module.meta).toEqual({ type: "context", name: "context-test" });
    expect(module.configSchema).toBe(configSchema);
  });
});

describe("defineStoreModule createContext", () => {
  it("should hand the engine's keys to the manager and the resolved config to the store", async () => {
    const manager = await module.createContext({ sessionId: "one", maxTokens: 900, tokenizer: "estimate" });
    expect(manager.config.maxTokens).toBe(900);
    expect(storeConfigs.at(-1)).toMatchObject({ sessionId: "one", tornTail: false, maxTokens: 900 });
    await manager.addMessage({ role: "user", content: "hello" });
    expect(await manager.getMessages()).toEqual([{ role: "user", content: "hello" }]);
    await manager.close();
  });

  it("should refuse every bad key in one ContextConfigError named after the package", async () => {
    const error = await module.createContext({ sessionId: "", colour: "red" } as never).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContextConfigError);
    expect((error as ContextConfigError).message).toContain("@ctxkit/context-test");
    expect((error as ContextConfigError).issues.map((issue) => issue.path)).toEqual(expect.arrayContaining(["sessionId", "colour"]));
  });
});

describe("defineStoreModule mount", () => {
  it("should mount the manager at context and forward the open's events once each", async () => {
    const coordinator = createCoordinator();
    const heard: unknown[] = [];
    coordinator.hooks.register("context:recover", (_event, payload) => void heard.push(payload));
    const cleanup = await module.mount(coordinator, { sessionId: "torn", tornTail: true, tokenizer: "estimate" });
    expect(heard).toEqual([{ file: "memory:torn", droppedBytes: 7 }]);
    expect(coordinator.get("context")).toBeDefined();
    await cleanup();
    await cleanup();
    expect(coordinator.get("context")).toBeUndefined();
  });

  it("should keep the config's own onEvent beside the hooks, even when it throws", async () => {
    const coordinator = createCoordinator();
    const heard: string[] = [];
    coordinator.hooks.register("context:recover", () => void heard.push("hooks"));
    const onEvent = () => {
      heard.push("config");
      throw new Error("a handler that fails");
    };
    const cleanup = await module.mount(coordinator, { sessionId: "torn-2", tornTail: true, tokenizer: "estimate", onEvent });
    expect(heard.sort()).toEqual(["config", "hooks"]);
    await cleanup();
  });

  it("should reject a missing config, naming the key it needs", async () => {
    await expect(module.mount(createCoordinator(), undefined as never)).rejects.toThrow(/sessionId/);
  });
});
