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

  it("should reject a timeout that is not a positive whole number of milliseconds", async () => {
    await expect(memoryContext({ eventHandlerTimeoutMs: 0 })).rejects.toThrow(/eventHandlerTimeoutMs/);
  });
});
