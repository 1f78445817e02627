// A view's tokens by category add up to the messages' counts, split as core's explainView splits them.
import { createContextManager, estimateCounter, MemoryMessageStore, type Message } from "@ctxkit/core";
import { canExplainView, countMessageTokens } from "@ctxkit/core/kit";
import { sampleTurn, systemMessage } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { CATEGORIES, ViewCategorizer } from "./view-categories.js";

const summary: Message = {
  role: "user",
  content: "<summary>earlier work</summary>",
  metadata: { ctxkit: { source: "summary", summary: { coveredThrough: 3 } } },
};

describe("ViewCategorizer", () => {
  it("should put each message's whole count in one category, an assistant's calls apart from its text", () => {
    const counter = estimateCounter();
    const categorizer = new ViewCategorizer(counter);
    const view = [systemMessage("rules"), ...sampleTurn(0, 400), summary];
    const totals = categorizer.categoriesOf(view);
    expect(totals.reduce((sum, tokens) => sum + tokens, 0)).toBe(
      view.reduce((sum, message) => sum + countMessageTokens(message, counter), 0),
    );
    expect(totals[CATEGORIES.indexOf("summaries")]).toBe(countMessageTokens(summary, counter));
    expect(totals[CATEGORIES.indexOf("toolCalls")]).toBe(countMessageTokens(view[2]!, counter));
    expect(totals[CATEGORIES.indexOf("toolResults")]).toBe(countMessageTokens(view[3]!, counter));
  });

  it("should agree with explainView's totals for the same view and counter", async () => {
    const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
    const history = [systemMessage("rules"), ...sampleTurn(0, 400), ...sampleTurn(1, 400)];
    for (const message of history) await manager.addMessage(message);
    if (!canExplainView(manager)) throw new Error("the engine explains its views");
    const explained = await manager.explainView({ tokenBudget: 100_000 });
    const view = await manager.getMessagesForRequest({ tokenBudget: 100_000 });
    expect(new ViewCategorizer(estimateCounter()).categoriesOf(view)).toEqual(CATEGORIES.map((category) => explained.totals[category]));
  });
});
