import { describe, expect, it } from "vitest";
import type { Message } from "../messages/message.js";
import type { Strategy } from "../pipeline/strategy.js";
import { createViewDraft } from "../pipeline/view-draft.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import type { StateChange } from "../store/message-store.js";
import { sampleTurn, systemMessage, userMessage } from "../testing/index.js";
import type { ContextConfig } from "./context-config.js";
import { createContextManager } from "./create-context-manager.js";

/** A strategy that keeps a count in its state each time it runs: a preview must not keep it. */
const counting: Strategy = {
  name: "counting",
  async apply(view, context) {
    await context.state.set("runs", (context.state.get<number>("runs") ?? 0) + 1);
    return { view, applied: false };
  },
};

async function openWith(history: readonly Message[], config: ContextConfig) {
  const store = new MemoryMessageStore();
  const writes: StateChange[] = [];
  const writeState = store.writeState.bind(store);
  store.writeState = (change) => {
    writes.push(change);
    return writeState(change);
  };
  const events: string[] = [];
  const manager = await createContextManager({ store, tokenizer: "estimate", ...config, onEvent: (event) => void events.push(event) });
  for (const message of history) await manager.addMessage(message);
  return { manager, writes, events };
}

const histories: Record<string, Message[]> = {
  short: [systemMessage("s"), userMessage("hello"), ...sampleTurn(0, 200)],
  long: [systemMessage("You are terse."), ...Array.from({ length: 10 }, (_, index) => sampleTurn(index, 1_500)).flat()],
  "open tool unit": [systemMessage("s"), ...sampleTurn(0, 3_000), ...sampleTurn(1, 3_000).slice(0, 2)],
};

describe("explainView", () => {
  for (const [name, history] of Object.entries(histories)) {
    for (const budget of [100_000, 3_000, 1_200]) {
      it(`should leave the next view byte for byte as it would be (${name}, budget ${budget})`, async () => {
        const config: ContextConfig = { strategies: [counting, "clear-tool-results", "truncate"] };
        const plain = await openWith(history, config);
        const explained = await openWith(history, config);
        // A first request, then more messages, so the view has decisions of its own to keep.
        const first = await plain.manager.getMessagesForRequest({ tokenBudget: budget }).catch(() => undefined);
        await explained.manager.getMessagesForRequest({ tokenBudget: budget }).catch(() => undefined);
        for (const message of sampleTurn(20, 2_500)) {
          await plain.manager.addMessage(message);
          await explained.manager.addMessage(message);
        }
        const writesBefore = explained.writes.length;
        const eventsBefore = explained.events.length;
        const explanation = await explained.manager.explainView({ tokenBudget: budget });
        expect(explained.writes.length).toBe(writesBefore);
        expect(explained.events.length).toBe(eventsBefore);
        expect((await explained.manager.listCompactions()).length).toBe((await plain.manager.listCompactions()).length);
        const expected = await plain.manager.getMessagesForRequest({ tokenBudget: budget }).catch((error: Error) => error.name);
        const next = await explained.manager.getMessagesForRequest({ tokenBudget: budget }).catch((error: Error) => error.name);
        expect(JSON.stringify(next)).toBe(JSON.stringify(expected));
        if (typeof next === "string") return;
        // And it tells the truth about that view.
        expect(explanation.tokens).toBe((await explained.manager.usage())!.tokens);
        expect(explanation.messages.filter((message) => message.inView).length + explanation.synthetic.length).toBe(next.length);
        expect(first === undefined || explanation.sharedPrefix.messages <= first.length).toBe(true);
      });
    }
  }

  it("should fail a strategy in the preview where it would fail for real: state that is not JSON (regression)", async () => {
    const unstorable: Strategy = {
      name: "unstorable",
      async apply(view, context) {
        await context.state.set("callback", () => 1);
        return { view: createViewDraft(view.entries.slice(-1)), applied: true };
      },
    };
    const { manager } = await openWith(histories.long!, { strategies: [unstorable, "truncate"] });
    const explanation = await manager.explainView({ tokenBudget: 2_000 });
    const view = await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    expect(explanation.tokens).toBe((await manager.usage())!.tokens);
    expect(explanation.messages.filter((message) => message.inView).length + explanation.synthetic.length).toBe(view.length);
  });

  it("should say a compaction is due, and why, without running it", async () => {
    const { manager, writes } = await openWith(histories.long!, { strategies: [counting, "truncate"] });
    const before = writes.length;
    const explanation = await manager.explainView({ tokenBudget: 2_000 });
    expect(explanation.compaction).toBe("threshold");
    expect(writes.length).toBe(before);
    expect(explanation.messages.some((message) => message.form === "dropped" && message.strategy === "truncate")).toBe(true);
    await manager.getMessagesForRequest({ tokenBudget: 2_000 });
    // The real request ran the counting strategy and kept its state; the preview did not.
    expect(writes.filter((change) => change.strategy === "counting")).toHaveLength(1);
  });
});
