// The conformance suite against context-simple and context-persistent running [clear-tool-results, summary, truncate].
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeContextManager, describeStrategy } from "@ctxkit/conformance/vitest";
import * as contextPersistent from "@ctxkit/context-persistent";
import * as contextSimple from "@ctxkit/context-simple";
import { afterAll } from "vitest";
import { todoListReminder, withPostSummaryHooks } from "./post-summary-hooks.js";
import { createSessionMemoryStrategy } from "./session-memory.js";
import { createSummaryStrategy } from "./summary-strategy.js";
import type { Summarizer } from "./summarizer.js";

/** A fresh summary strategy for each instance, so no breaker or cache is shared, summarizing with the kit's recording summarizer. */
const strategies = (summarizer: Summarizer) => ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"];

const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-summary-conformance-"));
afterAll(() => rmSync(storagePath, { recursive: true, force: true }));

describeContextManager("context-simple with [clear-tool-results, summary, truncate]", contextSimple, {
  config: ({ summarizer }: { summarizer: Summarizer }) => ({ strategies: strategies(summarizer) }),
  summarizer: true,
});

// Over context-persistent, what the files add is what outlives an instance: the summary's checkpoints across a
// restart (restart, undo-compaction, partial-compaction), a resume, a clear, concurrent calls. Those keep their full
// runs with the structural checks and any property the kit adds later; the view properties, which the same engine
// and strategy meet at full runs on context-simple above, run at 25 runs here (the kit's viewPropertyRuns).
describeContextManager("context-persistent with [clear-tool-results, summary, truncate]", contextPersistent, {
  config: ({ sessionId, summarizer }: { sessionId: string; summarizer: Summarizer }) => ({
    storagePath,
    sessionId,
    strategies: strategies(summarizer),
  }),
  summarizer: true,
  restart: true,
  viewPropertyRuns: 25,
});

// The strategy on its own, with a fresh breaker and cache for every draft.
describeStrategy("summary", () => createSummaryStrategy());

// Session memory updated after every request that adds a little, so the conformance sessions see it swapped in.
describeContextManager("context-simple with [session-memory with post-summary hooks, truncate]", contextSimple, {
  config: () => ({
    strategies: [
      withPostSummaryHooks(createSessionMemoryStrategy({ updateEveryTokens: 1, keepRecentMessages: 2 }), [
        todoListReminder(),
        () => "keep going",
      ]),
      "truncate",
    ],
  }),
});
