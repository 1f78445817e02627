import { afterEach, describe, expect, it, vi } from "vitest";
import { MockContextManager } from "../testing/mock-context-manager.js";
import { createCoordinator, type HandlerErrorSource } from "./create-coordinator.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createCoordinator", () => {
  it("should bring mount points, hooks, contributors and cleanups together", async () => {
    const coordinator = createCoordinator();
    const manager = new MockContextManager();
    await coordinator.mount("context", manager);
    const seen: unknown[] = [];
    coordinator.hooks.register("context:recover", (_event, data) => void seen.push(data.file));
    await coordinator.hooks.emit("context:recover", { file: "session.jsonl", droppedBytes: 3 });
    coordinator.registerContributor("observability.events", "test", () => ["context:recover"]);
    const cleanup = vi.fn();
    coordinator.registerCleanup(cleanup);
    await coordinator.cleanup();

    expect(coordinator.get("context")).toBe(manager);
    expect(seen).toEqual(["session.jsonl"]);
    expect(await coordinator.collectContributions("observability.events")).toEqual([["context:recover"]]);
    expect(cleanup).toHaveBeenCalledOnce();
  });

  it("should keep separate state per coordinator", async () => {
    const first = createCoordinator();
    const second = createCoordinator();
    await first.mount("context", new MockContextManager());
    expect(second.get("context")).toBeUndefined();
  });
});

describe("onHandlerError", () => {
  it("should receive hook and contributor failures", async () => {
    const sources: HandlerErrorSource[] = [];
    const coordinator = createCoordinator({ onHandlerError: (_error, source) => sources.push(source) });
    coordinator.hooks.register(
      "tick",
      () => {
        throw new Error("hook");
      },
      { name: "bad-hook" },
    );
    coordinator.registerContributor("channel", "bad-contributor", () => {
      throw new Error("contributor");
    });
    await coordinator.hooks.emit("tick");
    await coordinator.collectContributions("channel");
    expect(sources).toEqual([
      { kind: "hook", event: "tick", name: "bad-hook" },
      { kind: "contributor", channel: "channel", name: "bad-contributor" },
    ]);
  });

  it("should default to console.warn", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const coordinator = createCoordinator();
    const failure = new Error("boom");
    coordinator.hooks.register(
      "tick",
      () => {
        throw failure;
      },
      { name: "noisy" },
    );
    await coordinator.hooks.emit("tick");
    expect(warn).toHaveBeenCalledWith('ctxkit: hook handler "noisy" for "tick" failed and was skipped.', failure);
  });

  it("should not break the emitter when the reporter itself throws", async () => {
    const after = vi.fn();
    const coordinator = createCoordinator({
      onHandlerError: () => {
        throw new Error("reporter broke");
      },
    });
    coordinator.hooks.register("tick", () => {
      throw new Error("handler broke");
    });
    coordinator.hooks.register("tick", after);
    await expect(coordinator.hooks.emit("tick")).resolves.toBeUndefined();
    expect(after).toHaveBeenCalledOnce();
  });
});
