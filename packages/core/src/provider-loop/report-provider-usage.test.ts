import { describe, expect, it } from "vitest";
import { createContextManager } from "../engine/create-context-manager.js";
import type { EventHandler } from "../engine/context-config.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { parseProviderUsage } from "./parse-provider-usage.js";
import { reportProviderUsage } from "./report-provider-usage.js";

async function managerWithReports() {
  const manager = await createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });
  const reported: unknown[] = [];
  const reportUsage = manager.reportUsage.bind(manager);
  manager.reportUsage = (usage) => {
    reported.push(usage);
    return reportUsage(usage);
  };
  const events: unknown[] = [];
  const onEvent: EventHandler = (event, payload) => {
    events.push([event, payload]);
  };
  return { manager, reported, events, onEvent };
}

describe("reportProviderUsage", () => {
  it("should hand a usable count to the manager", async () => {
    const { manager, reported, events, onEvent } = await managerWithReports();
    await reportProviderUsage(
      manager,
      parseProviderUsage({ prompt_tokens: 40, completion_tokens: 2 }, { input: ["prompt_tokens"], output: "completion_tokens" }),
      { onEvent },
    );
    expect(reported).toEqual([{ inputTokens: 40, outputTokens: 2 }]);
    expect(events).toEqual([]);
  });

  // (regression) A malformed usage reached the manager, whose ContextValidationError failed a turn the provider had answered.
  it.each([
    ["a NaN ProviderUsage", { inputTokens: Number.NaN }],
    ["a parsed usage with problems", parseProviderUsage({ prompt_tokens: -1 }, { input: ["prompt_tokens"] })],
  ])("should ignore %s and emit context:usage_rejected, never throw", async (_case, usage) => {
    const { manager, reported, events, onEvent } = await managerWithReports();
    await expect(reportProviderUsage(manager, usage, { provider: "Test API", onEvent })).resolves.toBeUndefined();
    expect(reported).toEqual([]);
    expect(events).toEqual([
      ["context:usage_rejected", { provider: "Test API", problems: [expect.objectContaining({ reason: expect.any(String) })] }],
    ]);
  });

  it("should not fail when the event handler throws", async () => {
    const { manager } = await managerWithReports();
    const onEvent: EventHandler = () => {
      throw new Error("handler broke");
    };
    await expect(reportProviderUsage(manager, { inputTokens: -1 }, { onEvent })).resolves.toBeUndefined();
  });
});
