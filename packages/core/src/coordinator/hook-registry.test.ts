import { describe, expect, it, vi } from "vitest";
import type { HandlerErrorReporter, HandlerErrorSource } from "./handler-error.js";
import { createHookRegistry } from "./hook-registry.js";

function createRecordingRegistry() {
  const failures: Array<{ error: unknown; source: HandlerErrorSource }> = [];
  const report: HandlerErrorReporter = (error, source) => failures.push({ error, source });
  return { hooks: createHookRegistry(report), failures };
}

describe("hooks.register priority", () => {
  it("should run lower priority numbers first", async () => {
    const { hooks } = createRecordingRegistry();
    const order: string[] = [];
    hooks.register("tick", () => void order.push("late"), { priority: 10 });
    hooks.register("tick", () => void order.push("early"), { priority: -5 });
    hooks.register("tick", () => void order.push("default"));
    await hooks.emit("tick");
    expect(order).toEqual(["early", "default", "late"]);
  });

  it("should keep registration order for equal priorities", async () => {
    const { hooks } = createRecordingRegistry();
    const order: number[] = [];
    for (const index of [1, 2, 3]) hooks.register("tick", () => void order.push(index), { priority: 1 });
    await hooks.emit("tick");
    expect(order).toEqual([1, 2, 3]);
  });

  it("should run handlers one after another, awaiting each", async () => {
    const { hooks } = createRecordingRegistry();
    const order: string[] = [];
    hooks.register("tick", async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push("slow first");
    });
    hooks.register("tick", () => void order.push("second"));
    await hooks.emit("tick");
    expect(order).toEqual(["slow first", "second"]);
  });

  it("should reject a priority that is not a finite number", () => {
    const { hooks } = createRecordingRegistry();
    expect(() => hooks.register("tick", () => {}, { priority: Number.NaN })).toThrow(/options\.priority: must be a finite number/);
  });
});

describe("hooks.emit payloads", () => {
  it("should pass the event name, then the payload, to each handler, as onEvent is called", async () => {
    const { hooks } = createRecordingRegistry();
    const handler = vi.fn();
    hooks.register("context:repair", handler);
    await hooks.emit("context:repair", { kind: "dangling_call", toolCallIds: ["call_1"] });
    expect(handler).toHaveBeenCalledWith("context:repair", { kind: "dangling_call", toolCallIds: ["call_1"] });
  });

  it("should only call the handlers of the emitted event", async () => {
    const { hooks } = createRecordingRegistry();
    const handler = vi.fn();
    hooks.register("a", handler);
    await hooks.emit("b", 1);
    expect(handler).not.toHaveBeenCalled();
  });
});

describe("hooks failure isolation", () => {
  it("should keep running the other handlers when one throws", async () => {
    const { hooks, failures } = createRecordingRegistry();
    const after = vi.fn();
    hooks.register(
      "tick",
      () => {
        throw new Error("sync boom");
      },
      { name: "thrower" },
    );
    hooks.register("tick", after);
    await expect(hooks.emit("tick", 1)).resolves.toBeUndefined();
    expect(after).toHaveBeenCalledOnce();
    expect(failures).toHaveLength(1);
    expect(failures[0]?.source).toEqual({ kind: "hook", event: "tick", name: "thrower" });
    expect((failures[0]?.error as Error).message).toBe("sync boom");
  });

  it("should isolate a handler that rejects", async () => {
    const { hooks, failures } = createRecordingRegistry();
    const after = vi.fn();
    hooks.register("tick", async function rejecter() {
      throw new Error("async boom");
    });
    hooks.register("tick", after);
    await hooks.emit("tick");
    expect(after).toHaveBeenCalledOnce();
    expect(failures.map((failure) => failure.source)).toEqual([{ kind: "hook", event: "tick", name: "rejecter" }]);
  });
});

describe("hooks unregister", () => {
  it("should stop calling a handler once unregistered, and tolerate a second call", async () => {
    const { hooks } = createRecordingRegistry();
    const handler = vi.fn();
    const unregister = hooks.register("tick", handler);
    unregister();
    unregister();
    await hooks.emit("tick");
    expect(handler).not.toHaveBeenCalled();
  });

  it("should skip a handler unregistered by an earlier handler of the same emit", async () => {
    const { hooks } = createRecordingRegistry();
    const second = vi.fn();
    let unregisterSecond = () => {};
    hooks.register("tick", () => unregisterSecond());
    unregisterSecond = hooks.register("tick", second);
    await hooks.emit("tick");
    expect(second).not.toHaveBeenCalled();
  });

  it("should not run a handler registered during an emit until the next emit", async () => {
    const { hooks } = createRecordingRegistry();
    const late = vi.fn();
    hooks.register("tick", () => void hooks.register("tick", late));
    await hooks.emit("tick");
    expect(late).not.toHaveBeenCalled();
    await hooks.emit("tick");
    expect(late).toHaveBeenCalledOnce();
  });
});
