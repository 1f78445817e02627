// A persistent session resumed after a restart reuses its summary checkpoints from the journal.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPersistentContext } from "@ctxkit/context-persistent";
import type { ContextEventMap, Message } from "@ctxkit/core";
import { isSynthetic } from "@ctxkit/core/kit";
import { afterEach, describe, expect, it } from "vitest";
import { createLongSession } from "../test/long-session.js";
import { recordingSummarizer, type RecordingSummarizer } from "../test/recording-summarizer.js";
import { createSummaryStrategy } from "./summary-strategy.js";

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function openSession(storagePath: string, summarizer: RecordingSummarizer) {
  const applied: boolean[] = [];
  const manager = await createPersistentContext({
    storagePath,
    sessionId: "resumed",
    maxTokens: 8_000,
    tokenizer: "estimate",
    strategies: ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"],
    onEvent: (event, payload) => {
      if (event !== "context:post_compact") return;
      applied.push((payload as ContextEventMap["context:post_compact"]).steps.some((step) => step.strategy === "summary" && step.applied));
    },
  });
  return { manager, applied };
}

const summaryIn = (view: readonly Message[]) =>
  view.find((message) => isSynthetic(message) && message.metadata?.ctxkit?.source === "summary");

describe("a resumed persistent session", () => {
  it("should make no summarizer call for the checkpoints it already has, and extend them afterwards", async () => {
    const folder = await mkdtemp(join(tmpdir(), "ctxkit-summary-"));
    folders.push(folder);
    const session = createLongSession(1_200);
    const firstSummarizer = recordingSummarizer();
    const first = await openSession(folder, firstSummarizer);
    let lastView: Message[] = [];
    let added = 0;
    // Stop right after the second compaction that summarized, as a process might be stopped anywhere.
    while (first.applied.filter(Boolean).length < 2) {
      await first.manager.addMessage(session[added]!);
      added += 1;
      lastView = await first.manager.getMessagesForRequest();
    }
    await first.manager.close();
    expect(firstSummarizer.requests.length).toBeGreaterThanOrEqual(2);

    const resumedSummarizer = recordingSummarizer();
    const resumed = await openSession(folder, resumedSummarizer);
    const view = await resumed.manager.getMessagesForRequest();
    expect(resumed.applied).toEqual([true]);
    expect(resumedSummarizer.requests).toHaveLength(0);
    expect(summaryIn(view)).toEqual(summaryIn(lastView));

    for (const message of session.slice(added, added + 400)) {
      await resumed.manager.addMessage(message);
      await resumed.manager.getMessagesForRequest();
    }
    await resumed.manager.close();
    expect(resumedSummarizer.requests.length).toBeGreaterThan(0);
    expect(resumedSummarizer.requests[0]!.previousSummary).toBe(
      `summary #${firstSummarizer.requests.length} of ${firstSummarizer.requests.at(-1)!.messages.length} messages`,
    );
  });
});
