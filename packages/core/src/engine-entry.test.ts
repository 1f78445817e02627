// The engine entry is a narrower door to the kit's own objects: a context module built on it shares every class with
// a caller who imports the kit, so `instanceof` and identity hold across the two.
import { describe, expect, it } from "vitest";
import * as engine from "./engine-entry.js";
import { ContextEngine, contextConfigSchema, FALLBACK_BUDGET, MemoryMessageStore, mountContextManager } from "./kit.js";

describe("@ctxkit/core/engine", () => {
  it("should export exactly what a context module's package builds its manager from", () => {
    expect(Object.keys(engine).sort()).toEqual([
      "ContextEngine",
      "FALLBACK_BUDGET",
      "MemoryMessageStore",
      "contextConfigSchema",
      "mountContextManager",
    ]);
  });

  it("should export the kit's own objects, not copies", () => {
    expect(engine.ContextEngine).toBe(ContextEngine);
    expect(engine.contextConfigSchema).toBe(contextConfigSchema);
    expect(engine.FALLBACK_BUDGET).toBe(FALLBACK_BUDGET);
    expect(engine.MemoryMessageStore).toBe(MemoryMessageStore);
    expect(engine.mountContextManager).toBe(mountContextManager);
  });
});
