import { describe, expect, it } from "vitest";
import type { ContextEventMap } from "../events.js";
import type { Message } from "../messages/message.js";
import { createMemoryStateStore } from "../pipeline/memory-state-store.js";
import type { ObserveContext, Strategy } from "../pipeline/strategy.js";
import { userMessage } from "../testing/message-builders.js";
import { estimateCounter } from "../tokens/estimate-counter.js";
import { BackgroundWork } from "./background-work.js";
import { EventSink } from "./event-sink.js";

function observer(name: string, observe: (context: ObserveContext) => Promise<void> | void): Strategy {
  return { name, apply: (view) => ({ view, applied: false }), observe };
}

function workWith(observers: Strategy[]) {
  const events = new EventSink();
  const errors: ContextEventMap["context:strategy_error"][] = [];
  events.add(
    (event, payload) => void (event === "context:strategy_error" && errors.push(payload as ContextEventMap["context:strategy_error"])),
  );
  const state = createMemoryStateStore();
  return { work: new BackgroundWork(observers, estimateCounter(), events, () => state, 10_000), errors };
}

describe("BackgroundWork", () => {
  it("should not run an observer before the request that started it has returned", async () => {
    let seen: readonly Message[] | undefined;
    const { work } = workWith([observer("memory", (context) => void (seen = context.history))]);
    const history = [userMessage("one")];
    work.start(history);
    expect(seen).toBeUndefined();
    history.push(userMessage("two"));
    await work.flush();
    // It saw a copy taken when it started, not the history as it grew afterwards.
    expect(seen?.map((message) => message.content)).toEqual(["one"]);
  });

  it("should run one pass at a time: a start while a pass runs does nothing", async () => {
    let runs = 0;
    const { work } = workWith([observer("count", () => void (runs += 1))]);
    work.start([userMessage("a")]);
    work.start([userMessage("a")]);
    await work.flush();
    expect(runs).toBe(1);
    work.start([userMessage("a")]);
    await work.flush();
    expect(runs).toBe(2);
  });

  it("should report a failing observer as context:strategy_error and go on with the next", async () => {
    let laterRan = false;
    const { work, errors } = workWith([
      observer("broken", () => {
        throw new Error("observer failed");
      }),
      observer("later", () => void (laterRan = true)),
    ]);
    work.start([userMessage("a")]);
    await work.flush();
    expect(errors).toEqual([expect.objectContaining({ strategy: "broken", consecutiveFailures: 1 })]);
    expect(laterRan).toBe(true);
  });

  it("should abort a running pass on stop, report nothing for it, and start none afterwards", async () => {
    let aborted = false;
    let runs = 0;
    const { work, errors } = workWith([
      observer("slow", async (context) => {
        runs += 1;
        await new Promise<void>((resolve) => context.signal.addEventListener("abort", () => resolve()));
        aborted = context.signal.aborted;
        throw new Error("gave up");
      }),
    ]);
    work.start([userMessage("a")]);
    await new Promise((resolve) => setImmediate(resolve));
    await work.stop();
    expect(aborted).toBe(true);
    expect(errors).toEqual([]);
    work.start([userMessage("a")]);
    await work.flush();
    expect(runs).toBe(1);
  });

  it("should settle stop() at once while an observer ignores its signal and never answers (regression)", async () => {
    let started = false;
    const { work } = workWith([
      observer("stuck", () => {
        started = true;
        return new Promise<void>(() => {});
      }),
    ]);
    work.start([userMessage("one")]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(true);
    const guard = new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), 5_000).unref());
    expect(await Promise.race([work.stop().then(() => "stopped" as const), guard])).toBe("stopped");
  });
});
