import { sampleTurn } from "../testing/index.js";
import { describe, expect, it, vi } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

describe("eventHandlerTimeoutMs", () => {
  it("should go on without an event handler that never settles (regression)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const manager = await memoryContext({
      tokenizer: "estimate",
      eventHandlerTimeoutMs: 20,
      onEvent: (event) => (event === "context:pre_compact" ? new Promise<void>(() => {}) : undefined),
    });
    for (let turn = 0; turn < 6; turn += 1) for (const message of sampleTurn(turn, 400)) await manager.addMessage(message);
    const view = await manager.getMessagesForRequest({ tokenBudget: 600 });
    expect((await manager.usage())?.tokens).toBeLessThanOrEqual(600);
    expect(view.length).toBeGreaterThan(0);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("did not settle within 20 ms"));
    warn.mockRestore();
  });

  it("should bound the wait per request, not per event: a compaction and five repairs wait once (regression)", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const emitted: string[] = [];
    let waits = 0;
    const manager = await memoryContext({
      tokenizer: "estimate",
      eventHandlerTimeoutMs: 50,
      onEvent: (event) => {
        emitted.push(event);
        waits += 1;
        return new Promise<void>(() => {});
      },
    });
    // Five calls with no result: five repairs in one request, plus the compaction's events.
    for (let turn = 0; turn < 5; turn += 1) {
      const [question, call] = sampleTurn(turn, 400);
      await manager.addMessage(question!);
      await manager.addMessage(call!);
    }
    for (let turn = 5; turn < 10; turn += 1) for (const message of sampleTurn(turn, 400)) await manager.addMessage(message);
    await manager.getMessagesForRequest({ tokenBudget: 600 });
    expect(emitted.filter((event) => event === "context:repair")).toHaveLength(5);
    expect(emitted).toContain("context:pre_compact");
    // Every event reached the handler, and the request waited for one of them before going on.
    expect(waits).toBe(emitted.length);
    expect(warn.mock.calls.filter(([text]) => String(text).includes("did not settle"))).toHaveLength(1);
    warn.mockRestore();
  });

  it("should reject a timeout that is not a positive whole number of milliseconds", async () => {
    await expect(memoryContext({ eventHandlerTimeoutMs: 0 })).rejects.toThrow(/eventHandlerTimeoutMs/);
  });
});
