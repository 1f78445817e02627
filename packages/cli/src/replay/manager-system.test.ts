import { createContextManager, type Message, MemoryMessageStore } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { factsUsedByCalls } from "./extract-facts.js";
import { FULL_HISTORY, managerSystem } from "./manager-system.js";
import { replayCost } from "./replay-cost.js";
import { MessageFacts } from "./view-judge.js";

const defaultManager = managerSystem((onEvent) => createContextManager({ store: new MemoryMessageStore(), onEvent }));

function session(toolOutputs: number): Message[] {
  const messages: Message[] = [
    { role: "system", content: "You work in /srv/app." },
    { role: "user", content: "Read every module under src/." },
  ];
  for (let index = 0; index < toolOutputs; index += 1) {
    const id = `call_${index}`;
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name: "read", arguments: `{"path":"src/module_${index}.ts"}` } }],
    });
    messages.push({ role: "tool", tool_call_id: id, content: `export const module_${index}_value = ${index};\n`.repeat(60) });
  }
  messages.push({ role: "assistant", content: "Done." });
  return messages;
}

const inputOf = (messages: Message[]) => ({
  file: "session",
  messages,
  factsByCall: factsUsedByCalls(messages),
  facts: new MessageFacts(),
});

describe("managerSystem", () => {
  it("should count the manager's compactions, and views within the budget", async () => {
    const report = await replayCost(defaultManager, inputOf(session(12)), 3_000);
    expect(report.view.requests).toBe(13);
    expect(report.view.compactions).toBeGreaterThan(0);
    expect(report.view.compactions).toBeLessThan(report.view.requests);
    expect(report.view.overBudget).toBe(0);
    expect(report.view.pairViolations).toBe(0);
  });

  it("should record a ContextBudgetError as a refusal, not a failure", async () => {
    const messages = session(1);
    messages[0] = { role: "system", content: "Keep every rule in /srv/app/RULES.md in mind. ".repeat(200) };
    const report = await replayCost(defaultManager, inputOf(messages), 200);
    expect(report.view.refused).toBe(report.view.requests);
    expect(report.cost.viewTokens).toBe(0);
  });
});

describe("FULL_HISTORY", () => {
  it("should send every message every time: never a compaction, every fact retained", async () => {
    const report = await replayCost(FULL_HISTORY, inputOf(session(6)), 1_000_000);
    expect(report.view).toMatchObject({ requests: 7, refused: 0, compactions: 0 });
    expect(report.cost.retainedFacts).toBe(report.cost.facts);
  });
});
