// Every public entry point answers bad input with a typed ctxkit error that names the field, and changes nothing.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCoordinator } from "./coordinator/create-coordinator.js";
import { StoreStrategyState } from "./engine/store-strategy-state.js";
import { ContextError } from "./errors.js";
import { CircuitBreaker } from "./pipeline/circuit-breaker.js";
import { resolveTokenCounter } from "./tokens/resolve-token-counter.js";
import { tiktokenCounter } from "./tokens/tiktoken-counter.js";

async function errorOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to throw");
}

const notAFunction = "not a function" as never;
const persistable = new StoreStrategyState(new Map(), async () => {}).storeFor("summary");

const cases: Array<{ call: string; field: string; code: string; run: () => unknown }> = [
  {
    call: "hooks.register",
    field: "handler",
    code: "CONTEXT_ARGUMENT",
    run: () => createCoordinator().hooks.register("tick", notAFunction),
  },
  {
    call: "hooks.register",
    field: "options.priority",
    code: "CONTEXT_ARGUMENT",
    run: () => createCoordinator().hooks.register("tick", () => {}, { priority: "high" as never }),
  },
  { call: "mount", field: "instance", code: "CONTEXT_ARGUMENT", run: () => createCoordinator().mount("tools", null, { name: "x" }) },
  { call: "mount", field: "instance", code: "CONTEXT_ARGUMENT", run: () => createCoordinator().mount("context", {} as never) },
  {
    call: "mount",
    field: "options.name",
    code: "CONTEXT_ARGUMENT",
    run: () => createCoordinator().mount("providers", {} as never, {} as never),
  },
  { call: "mount", field: "nowhere", code: "MOUNT_POINT", run: () => createCoordinator().mount("nowhere" as never, {} as never) },
  {
    call: "registerContributor",
    field: "contributor",
    code: "CONTEXT_ARGUMENT",
    run: () => createCoordinator().registerContributor("channel", "name", notAFunction),
  },
  { call: "registerCleanup", field: "cleanup", code: "CONTEXT_ARGUMENT", run: () => createCoordinator().registerCleanup(notAFunction) },
  { call: "StrategyStateStore.set", field: "value.at", code: "CONTEXT_ARGUMENT", run: () => persistable.set("key", { at: new Date() }) },
  { call: "StrategyStateStore.set", field: "value", code: "CONTEXT_ARGUMENT", run: () => persistable.set("key", undefined) },
  { call: "tiktokenCounter", field: "encoding", code: "CONTEXT_ARGUMENT", run: () => tiktokenCounter("p50k_base" as never) },
  { call: "tiktokenCounter", field: "ranks", code: "CONTEXT_ARGUMENT", run: () => tiktokenCounter({ ranks: {} as never }) },
  { call: "resolveTokenCounter", field: "tokenizer", code: "CONTEXT_ARGUMENT", run: () => resolveTokenCounter({} as never) },
  { call: "CircuitBreaker", field: "failureThreshold", code: "CONTEXT_ARGUMENT", run: () => new CircuitBreaker({ failureThreshold: 0 }) },
  { call: "CircuitBreaker", field: "cooldownRequests", code: "CONTEXT_ARGUMENT", run: () => new CircuitBreaker({ cooldownRequests: 0.5 }) },
];

describe("typed errors at core's entry points", () => {
  it.each(cases)("$call with a bad $field should throw a ContextError $code naming it", async ({ field, code, run }) => {
    const error = await errorOf(run);
    expect(error).toBeInstanceOf(ContextError);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toContain(field);
  });

  it("should leave the coordinator as it was after a refused call", async () => {
    const coordinator = createCoordinator();
    await coordinator.mount("tools", { id: 1 }, { name: "search" });
    await expect(coordinator.mount("tools", {}, { name: "" })).rejects.toBeInstanceOf(ContextError);
    await expect(coordinator.mount("tools", null, { name: "search" })).rejects.toBeInstanceOf(ContextError);
    expect([...coordinator.get("tools").keys()]).toEqual(["search"]);
    expect(coordinator.get("tools", "search")).toEqual({ id: 1 });
  });

  it("should answer arbitrary arguments to the coordinator with success or a ContextError", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.jsonValue(), fc.constantFrom("tools", "providers", "context"), async (value, options, point) => {
        const coordinator = createCoordinator();
        const calls: Array<() => unknown> = [
          () => coordinator.hooks.register("tick", value as never, options as never),
          () => coordinator.hooks.register("tick", () => {}, options as never),
          () => coordinator.mount(point as "tools", value, options as never),
          () => coordinator.registerContributor("channel", "name", value as never),
          () => coordinator.registerCleanup(value as never),
          () => new CircuitBreaker(options as never),
          () => resolveTokenCounter(value as never),
          () => persistable.set("key", value),
        ];
        for (const call of calls) {
          try {
            await call();
          } catch (error) {
            expect(error).toBeInstanceOf(ContextError);
          }
        }
      }),
    );
  });
});
