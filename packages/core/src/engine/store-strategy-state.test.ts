import { ContextArgumentError } from "../errors.js";
import { describe, expect, it } from "vitest";
import type { StateChange } from "../store/message-store.js";
import { StoreStrategyState } from "./store-strategy-state.js";

function stateWith(loaded: Array<[string, string, unknown]> = []) {
  const changes: StateChange[] = [];
  const snapshot = new Map<string, Map<string, unknown>>();
  for (const [strategy, key, value] of loaded) snapshot.set(strategy, new Map([...(snapshot.get(strategy) ?? []), [key, value]]));
  const state = new StoreStrategyState(snapshot, async (change) => void changes.push(change));
  return { state, changes };
}

describe("StoreStrategyState", () => {
  it("should serve the loaded values and give each strategy its own keys", () => {
    const { state } = stateWith([["summary", "checkpoint", { through: 4 }]]);
    expect(state.storeFor("summary").get("checkpoint")).toEqual({ through: 4 });
    expect(state.storeFor("truncate").get("checkpoint")).toBeUndefined();
  });

  it("should record every change, and read it back at once", async () => {
    const { state, changes } = stateWith();
    const store = state.storeFor("summary");
    await store.set("checkpoint", { through: 1 });
    expect(store.get("checkpoint")).toEqual({ through: 1 });
    await store.delete("checkpoint");
    expect(store.get("checkpoint")).toBeUndefined();
    expect(changes).toEqual([
      { strategy: "summary", key: "checkpoint", value: { through: 1 } },
      { strategy: "summary", key: "checkpoint", deleted: true },
    ]);
  });

  it("should list the strategy's own keys as they stand: set, deleted, and replaced by a load", async () => {
    const { state } = stateWith([
      ["summary", "a", 1],
      ["truncate", "other", 2],
    ]);
    const store = state.storeFor("summary");
    await store.set("b", 2);
    await store.delete("a");
    expect(store.keys()).toEqual(["b"]);
    // What another writer left, as a shared store's sync hands it over.
    state.load(new Map([["summary", new Map([["c", 3]])]]));
    expect(store.keys()).toEqual(["c"]);
    expect(state.storeFor("pins").keys()).toEqual([]);
  });

  it("should write nothing when a value is set again unchanged, or a missing key deleted", async () => {
    const { state, changes } = stateWith([["summary", "checkpoint", { through: 4 }]]);
    const store = state.storeFor("summary");
    await store.set("checkpoint", { through: 4 });
    await store.delete("absent");
    expect(changes).toEqual([]);
  });

  it("should record the value as it was when set, even if the strategy changes its object later", async () => {
    const { state, changes } = stateWith();
    const value = { through: 1 };
    await state.storeFor("summary").set("checkpoint", value);
    value.through = 2;
    expect(changes[0]).toMatchObject({ value: { through: 1 } });
  });

  it("should refuse a value JSON cannot carry, and keep the old one", async () => {
    const { state, changes } = stateWith([["summary", "checkpoint", 1]]);
    const store = state.storeFor("summary");
    await expect(store.set("checkpoint", { at: new Date() })).rejects.toThrow(/set\("checkpoint"\): value\.at: cannot be persisted/);
    await expect(store.set("checkpoint", undefined)).rejects.toThrow(ContextArgumentError);
    expect(store.get("checkpoint")).toBe(1);
    expect(changes).toEqual([]);
  });

  it("should treat keys such as __proto__ as ordinary keys", async () => {
    const { state } = stateWith();
    await state.storeFor("summary").set("__proto__", { polluted: true });
    expect(state.snapshot().get("summary")?.get("__proto__")).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
