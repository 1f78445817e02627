import { describe, expect, it } from "vitest";
import { createMemoryStateStore } from "./memory-state-store.js";

describe("createMemoryStateStore", () => {
  describe("get, set and delete", () => {
    it("should return what was set, and undefined once deleted", async () => {
      const store = createMemoryStateStore();
      await store.set("checkpoint", { coveredThrough: 12 });
      expect(store.get("checkpoint")).toEqual({ coveredThrough: 12 });
      await store.delete("checkpoint");
      expect(store.get("checkpoint")).toBeUndefined();
    });

    it("should list the keys it holds, the initial ones included and the deleted ones not", async () => {
      const store = createMemoryStateStore({ a: 1 });
      await store.set("b", 2);
      await store.delete("a");
      expect(store.keys()).toEqual(["b"]);
    });

    it("should treat keys named like Object.prototype members as ordinary keys", async () => {
      const store = createMemoryStateStore();
      expect(store.get("toString")).toBeUndefined();
      await store.set("__proto__", 1);
      expect(store.get("__proto__")).toBe(1);
      expect(Object.hasOwn(store.snapshot(), "__proto__")).toBe(true);
    });
  });

  describe("initial", () => {
    it("should start from the initial values without changing the given object", async () => {
      const initial = { a: 1 };
      const store = createMemoryStateStore(initial);
      await store.set("b", 2);
      expect(store.get("a")).toBe(1);
      expect(initial).toEqual({ a: 1 });
    });
  });

  describe("snapshot", () => {
    it("should return a copy that later writes do not change", async () => {
      const store = createMemoryStateStore({ a: 1 });
      const snapshot = store.snapshot();
      await store.set("a", 2);
      expect(snapshot).toEqual({ a: 1 });
      expect(store.snapshot()).toEqual({ a: 2 });
    });
  });
});
