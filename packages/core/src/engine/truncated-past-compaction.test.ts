import { describe, expect, it } from "vitest";
import { type Recorded, managerWithEvents } from "../../test/memory-context.js";
import { receiptsWithoutIds } from "../../test/pinned-digests.js";
import { createTestView } from "../../test/strategy-context.js";
import type { Message } from "../messages/message.js";
import type { Strategy } from "../pipeline/strategy.js";
import { draftWithoutTruncatedPast } from "../pipeline/truncated-past.js";
import { elidedRunOf } from "../pipeline/view-draft.js";
import { presetStrategies, resolveStrategies } from "./resolve-strategies.js";

/** A long session: a task, then turns of a question, a call, its result naming a file, and an answer. */
function longHistory(turns: number): Message[] {
  const history: Message[] = [{ role: "system", content: "You are a coding agent." }];
  for (let turn = 0; turn < turns; turn += 1) {
    history.push(
      { role: "user", content: `step ${turn}: check src/app/module-${turn % 17}.ts` },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: `read_${turn}`, type: "function", function: { name: "read", arguments: "{}" } }],
      },
      {
        role: "tool",
        tool_call_id: `read_${turn}`,
        content: `src/app/module-${turn % 17}.ts ${"a line of code ".repeat(20 + (turn % 40))}`,
      },
      { role: "assistant", content: `module ${turn % 17} ${"reads each line and ".repeat(4 + (turn % 9))}` },
    );
  }
  return history;
}

/** The default pipeline's strategies, each behind a wrapper that declares nothing: they are handed whole drafts. */
function wrappedDefaults(): Strategy[] {
  return resolveStrategies(presetStrategies({})).map((strategy) => ({
    name: strategy.name,
    apply: (view, context) => strategy.apply(view, context),
  }));
}

const BUDGET = 6_000;

/**
 * Views, explanations, receipts and compaction events of a first view (of a history counted and not made into entries
 * yet), a second after more turns, a forced one and a larger budget.
 */
async function outcome(strategies?: Strategy[]) {
  const { manager, events } = await managerWithEvents({ ...(strategies === undefined ? {} : { strategies }) });
  const history = longHistory(460);
  await manager.setMessages(history.slice(0, 1_600));
  // A pin among the old turns: a unit no step drops, which the run left out must stop short of.
  await manager.pinMessage(401);
  const views = [await manager.getMessagesForRequest({ tokenBudget: BUDGET })];
  for (const message of history.slice(1_600)) await manager.addMessage(message);
  views.push(await manager.getMessagesForRequest({ tokenBudget: BUDGET }));
  const { steps, ...forced } = await manager.compact({ tokenBudget: BUDGET });
  views.push(await manager.getMessagesForRequest({ tokenBudget: 2 * BUDGET }));
  const explained = await manager.explainView({ tokenBudget: BUDGET });
  const compactions = events
    .filter((recorded): recorded is Recorded => recorded.event === "context:pre_compact" || recorded.event === "context:post_compact")
    .map(({ event, payload }) => ({ event, payload: { ...payload, durationMs: undefined, steps: undefined, receiptId: undefined } }));
  const figures = steps.map(({ durationMs: _durationMs, ...step }) => step);
  return { views, forced, figures, explained, receipts: await receiptsWithoutIds(manager), compactions };
}

describe("a compaction that leaves the truncated past out of its draft", () => {
  it("should give the views, receipts, explanations and events of whole drafts", async () => {
    // The first view's draft leaves out most of the session: the same entries the manager's view starts from.
    const first = createTestView(longHistory(460).slice(0, 1_600));
    const draft = draftWithoutTruncatedPast(first.entries, resolveStrategies(presetStrategies({})), {
      target: Math.floor(BUDGET * 0.2),
      budget: BUDGET,
      protectFirst: 0,
    });
    expect(elidedRunOf(draft!)!.entries.length).toBeGreaterThan(1_000);
    const left = await outcome();
    expect(left).toEqual(await outcome(wrappedDefaults()));
    // It starts from the whole history, as the event says.
    expect(left.compactions[0]).toMatchObject({ event: "context:pre_compact", payload: { messageCount: 1_600 } });
  });
});
