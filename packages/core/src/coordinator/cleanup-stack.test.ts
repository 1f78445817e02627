import { ContextArgumentError } from "../errors.js";
import { describe, expect, it, vi } from "vitest";
import { createCleanupStack } from "./cleanup-stack.js";

describe("cleanup order", () => {
  it("should run cleanups in reverse registration order, awaiting each", async () => {
    const stack = createCleanupStack();
    const order: string[] = [];
    stack.registerCleanup(() => void order.push("first registered"));
    stack.registerCleanup(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push("second registered");
    });
    stack.registerCleanup(() => void order.push("last registered"));
    await stack.cleanup();
    expect(order).toEqual(["last registered", "second registered", "first registered"]);
  });
});

describe("cleanup idempotence", () => {
  it("should run each cleanup at most once when cleanup() is called twice", async () => {
    const stack = createCleanupStack();
    const cleanup = vi.fn();
    stack.registerCleanup(cleanup);
    await stack.cleanup();
    await stack.cleanup();
    expect(cleanup).toHaveBeenCalledOnce();
  });

  it("should share one run between concurrent calls", async () => {
    const stack = createCleanupStack();
    const cleanup = vi.fn(() => new Promise<void>((resolve) => setTimeout(resolve, 5)));
    stack.registerCleanup(cleanup);
    await Promise.all([stack.cleanup(), stack.cleanup()]);
    expect(cleanup).toHaveBeenCalledOnce();
  });

  it("should run cleanups registered after an earlier cleanup()", async () => {
    const stack = createCleanupStack();
    await stack.cleanup();
    const later = vi.fn();
    stack.registerCleanup(later);
    await stack.cleanup();
    expect(later).toHaveBeenCalledOnce();
  });
});

describe("cleanup failures", () => {
  it("should run every cleanup despite failures, then throw an AggregateError listing them", async () => {
    const stack = createCleanupStack();
    const survivor = vi.fn();
    stack.registerCleanup(survivor);
    stack.registerCleanup(() => Promise.reject(new Error("close failed")));
    stack.registerCleanup(() => {
      throw new Error("flush failed");
    });
    const error = await stack.cleanup().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(survivor).toHaveBeenCalledOnce();
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).errors.map((cause: Error) => cause.message)).toEqual(["flush failed", "close failed"]);
    expect((error as AggregateError).message).toBe("2 cleanup(s) failed: flush failed; close failed");
  });

  it("should not rerun failed cleanups on a second call", async () => {
    const stack = createCleanupStack();
    const failing = vi.fn(() => {
      throw new Error("once");
    });
    stack.registerCleanup(failing);
    await expect(stack.cleanup()).rejects.toThrow(AggregateError);
    await expect(stack.cleanup()).resolves.toBeUndefined();
    expect(failing).toHaveBeenCalledOnce();
  });

  it("should reject something that is not a function", () => {
    const stack = createCleanupStack();
    expect(() => stack.registerCleanup("nope" as never)).toThrow(ContextArgumentError);
  });
});
