import {
  canCompact,
  canRecoverOverflow,
  canReportUsage,
  canTakeProviderUsage,
  canTellShouldCompact,
  ContextClosedError,
  type ContextManager,
  createContextManager,
  createCoordinator,
  type Message,
} from "@ctxkit/core";
import { ContextEngine } from "@ctxkit/core/kit";
import type { HookRegistry } from "@ctxkit/core/kit";
import { MockContextManager, systemMessage, toolCallMessage, userMessage } from "@ctxkit/core/testing";
import { MemoryMessageStore, mount } from "@ctxkit/context-simple";
import { DiagLogLevel, diag } from "@opentelemetry/api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createInMemoryTelemetry, type InMemoryTelemetry } from "../test/__fixtures__/in-memory-telemetry.js";
import { instrumentContextManager } from "./index.js";

let telemetry: InMemoryTelemetry;
afterEach(() => telemetry?.shutdown());

function instrument<Manager extends ContextManager>(manager: Manager, hooks?: Pick<HookRegistry, "register">): Manager {
  telemetry = createInMemoryTelemetry();
  return instrumentContextManager(manager, {
    tracer: telemetry.tracerProvider.getTracer("test"),
    meter: telemetry.meterProvider.getMeter("test"),
    ...(hooks === undefined ? {} : { hooks }),
  });
}

const repairsPerSpan = () => telemetry.spans().map((span) => span.events.filter((event) => event.name === "ctxkit.repair").length);

describe("instrumentContextManager", () => {
  it("should keep every capability, getter and the class of a manager built on core's engine", async () => {
    const manager = await createContextManager({ store: new MemoryMessageStore("kept"), tokenizer: "estimate" });
    const context = instrument(manager);
    expect(context).toBeInstanceOf(ContextEngine);
    expect([canCompact, canRecoverOverflow, canReportUsage, canTakeProviderUsage, canTellShouldCompact].map((can) => can(context))).toEqual(
      [true, true, true, true, true],
    );
    expect(context.sessionId).toBe("kept");
    await context.addMessage(userMessage("hello"));
    expect(await context.shouldCompact({ tokenBudget: 1_000 })).toBe(false);
    expect(await context.getMessages()).toEqual([userMessage("hello")]);
    expect(context.addMessage).toBe(context.addMessage); // one bound method, not a new one per read
  });

  it("should add no capability the manager lacks, and trace a manager without usage() by its view's length", async () => {
    const context = instrument(new MockContextManager([systemMessage("s"), userMessage("u")]));
    expect(canCompact(context)).toBe(false);
    expect(canReportUsage(context)).toBe(false);
    expect((context as { close?: unknown }).close).toBeUndefined();
    expect(await context.getMessagesForRequest()).toHaveLength(2);
    const [span] = telemetry.spans();
    expect(span!.attributes["ctxkit.view.message_count"]).toBe(2);
    expect(span!.attributes).not.toHaveProperty("ctxkit.view.tokens");
    expect(span!.attributes).not.toHaveProperty("gen_ai.conversation.id");
  });

  it("should close the manager it wraps", async () => {
    const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
    const context = instrument(manager);
    await context.close();
    await expect(manager.getMessages()).rejects.toBeInstanceOf(ContextClosedError);
  });

  describe("hooks that cannot unregister", () => {
    const recorded: string[] = [];
    beforeEach(() => {
      recorded.length = 0;
      const record = (message: string, ...args: unknown[]) => void recorded.push([message, ...args.map(String)].join(" "));
      diag.setLogger({ error: record, warn: record, info: () => {}, debug: () => {}, verbose: () => {} }, DiagLogLevel.WARN);
    });
    afterEach(() => diag.disable());

    it.each([
      ["undefined", undefined],
      ["a string", "unregister"],
      ["an object", { remove: () => {} }],
    ])("should close the manager when register returns %s, and say why on diag (regression)", async (_name, returned) => {
      const coordinator = createCoordinator();
      const hooks = {
        register: (event: string, handler: Parameters<HookRegistry["register"]>[1]) => {
          coordinator.hooks.register(event, handler);
          return returned as unknown as () => void;
        },
      };
      const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
      const context = instrument(manager, hooks);
      expect(recorded.join("\n")).toMatch(/register returned .*not an unregister function/);
      await context.close();
      await expect(manager.getMessages()).rejects.toBeInstanceOf(ContextClosedError);
      // The handler that stayed registered records nothing once closed.
      await coordinator.hooks.emit("context:repair", { kind: "orphan_result", toolCallIds: ["call_1"] });
      expect(telemetry.spans()).toEqual([]);
    });

    it("should close the manager when an unregister function throws", async () => {
      const hooks = {
        register: () => () => {
          throw new Error("cannot unregister");
        },
      };
      const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
      await instrument(manager, hooks).close();
      await expect(manager.getMessages()).rejects.toBeInstanceOf(ContextClosedError);
      expect(recorded.join("\n")).toMatch(/removing a hook handler failed/);
    });
  });

  it("should put each event on the request that caused it when requests overlap", async () => {
    const context = instrument(await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" }));
    await context.addMessage(userMessage("Read a.txt"));
    await context.addMessage(toolCallMessage("call_1"));
    await context.addMessage(userMessage("Still there?"));
    // Neither awaited: the first is queued, then the second; only the first finds the dangling call new.
    const first = context.getMessagesForRequest({ tokenBudget: 1_000 });
    const second = context.getMessagesForRequest({ tokenBudget: 1_000 });
    await Promise.all([first, second]);
    expect(repairsPerSpan()).toEqual([1, 0]);
  });

  it("should record events sent to the coordinator's hooks when mounted through a module", async () => {
    const coordinator = createCoordinator();
    await mount(coordinator, { tokenizer: "estimate" });
    const context = instrument(coordinator.get("context")!, coordinator.hooks);
    await context.addMessage(userMessage("Read a.txt"));
    await context.addMessage(toolCallMessage("call_1"));
    await context.addMessage(userMessage("Still there?"));
    await context.getMessagesForRequest({ tokenBudget: 1_000 });
    expect(repairsPerSpan()).toEqual([1]);
  });

  it("should take events from hooks alone when given, for a manager that only emits there", async () => {
    const coordinator = createCoordinator();
    const view: Message[] = [userMessage("hi")];
    const emitsOnHooks = new MockContextManager(view);
    emitsOnHooks.getMessagesForRequest = async () => {
      await coordinator.hooks.emit("context:repair", { kind: "orphan_result", toolCallIds: ["call_9"] });
      return view;
    };
    const context = instrument(emitsOnHooks, coordinator.hooks);
    await context.getMessagesForRequest();
    await coordinator.hooks.emit("context:repair", { kind: "orphan_result", toolCallIds: ["call_10"] }); // outside any request
    const [span] = telemetry.spans();
    expect(span!.events.map((event) => event.attributes)).toEqual([
      { "ctxkit.repair.kind": "orphan_result", "ctxkit.repair.tool_call_ids": ["call_9"] },
    ]);
  });

  it("should work with the global tracer and meter when given none", async () => {
    const context = instrumentContextManager(await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" }));
    await context.addMessage(userMessage("hello"));
    expect(await context.getMessagesForRequest({ tokenBudget: 1_000 })).toEqual([userMessage("hello")]);
  });
});
