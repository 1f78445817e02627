import { microcompact, type CompactionReason, type ContextEventMap } from "../index.js";
import { sampleTurn, systemMessage } from "../testing/index.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryContext } from "../../test/memory-context.js";

const history = [systemMessage("be brief"), ...Array.from({ length: 6 }, (_, turn) => sampleTurn(turn, 1_000)).flat()];

function managerWith(idleMs: number | null, reasons: CompactionReason[]) {
  return memoryContext({
    tokenizer: "estimate",
    strategies: [microcompact({ idleMs, keepRecent: 1, isClearable: () => true }), "truncate"],
    onEvent: (event, payload) => {
      if (event === "context:pre_compact") reasons.push((payload as ContextEventMap["context:pre_compact"]).reason!);
    },
  });
}

describe("idle microcompact", () => {
  afterEach(() => void vi.useRealTimers());

  it("should clear stale tool results after a pause, under the threshold, with the reason idle", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const reasons: CompactionReason[] = [];
    const manager = await managerWith(60_000, reasons);
    await manager.setMessages(history);
    const first = await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    vi.setSystemTime(Date.now() + 30_000);
    expect(await manager.getMessagesForRequest({ tokenBudget: 100_000 })).toEqual(first);
    expect(reasons).toEqual([]);
    vi.setSystemTime(Date.now() + 60_000);
    const after = await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect(reasons).toEqual(["idle"]);
    const cleared = after.filter((message) => message.role === "tool" && String(message.content).startsWith("[stale"));
    expect(cleared).toHaveLength(5);
    // The history is untouched, and the next request right away keeps the cleared view.
    expect((await manager.getMessages()).filter((message) => String(message.content).startsWith("[stale"))).toHaveLength(0);
    expect(await manager.getMessagesForRequest({ tokenBudget: 100_000 })).toEqual(after);
    expect(reasons).toEqual(["idle"]);
  });

  it("should never run on a pause when idleMs is null", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const reasons: CompactionReason[] = [];
    const manager = await managerWith(null, reasons);
    await manager.setMessages(history);
    await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    vi.setSystemTime(Date.now() + 3_600_000);
    await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect(reasons).toEqual([]);
  });
});
