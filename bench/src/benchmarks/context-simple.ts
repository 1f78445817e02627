// context-simple on a generated 10 000-message session: steady-state requests, one compaction, tokenizer calls.
import { tiktokenCounter, type Message, type TokenCounter } from "@ctxkit/core";
import { createSimpleContext, type SimpleContextConfig } from "@ctxkit/context-simple";
import type { BenchmarkOptions, Table } from "../lib/benchmark.js";
import { formatDuration } from "../lib/measure.js";
import { measureAsync } from "../lib/measure-async.js";
import { generateSession } from "../sessions/generate-session.js";

export const name = "context-simple";
export const description = "context-simple on a generated session with large tool outputs";

// Texts of messages a compaction rewrote (a cleared result, a trimmed text): new messages, counted once each.
const REWRITE_MARKERS = ["[tool result cleared to save context:", " characters trimmed …]"];

/** The exact counter, counting its calls for history messages and for rewritten ones apart. */
function countingCounter(): TokenCounter & { calls: number; rewrittenCalls: number } {
  const exact = tiktokenCounter("o200k_base");
  const counter = {
    name: exact.name,
    calls: 0,
    rewrittenCalls: 0,
    count(text: string) {
      if (REWRITE_MARKERS.some((marker) => text.includes(marker))) counter.rewrittenCalls += 1;
      else counter.calls += 1;
      return exact.count(text);
    },
  };
  return counter;
}

const NO_COMPACTION = 100_000_000;
const BUDGET = 128_000;

/** The default before identifier digests and the lower threshold and target, for the side-by-side compaction row. */
const PREVIOUS_DEFAULT = {
  compactThreshold: 0.92,
  targetRatio: 0.6,
  strategies: [{ name: "clear-tool-results", options: { maxIdentifiers: 0 } }, "trim-long-text", "truncate"],
} satisfies SimpleContextConfig;

async function loaded(history: Message[], counter: TokenCounter, config: SimpleContextConfig = {}) {
  const manager = createSimpleContext({ ...config, tokenizer: counter });
  await manager.setMessages(history);
  return manager;
}

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const size = quick ? 2_000 : 10_000;
  const session = generateSession({ messages: size + 200, meanOutputChars: 1_400 });
  const history = session.slice(0, size);
  const extra = session.slice(size);
  const runs = quick ? 3 : 7;

  // Steady state: each request follows one new message and needs no compaction.
  const counter = countingCounter();
  const steady = await loaded(history, counter);
  const firstStarted = performance.now();
  await steady.getMessagesForRequest({ tokenBudget: NO_COMPACTION });
  const firstRequestMs = performance.now() - firstStarted;
  const historyTokens = (await steady.usage())!.tokens;
  let next = 0;
  const steadyRequest = await measureAsync(() => steady.getMessagesForRequest({ tokenBudget: NO_COMPACTION }), {
    runs: quick ? 50 : 200,
    setup: () => steady.addMessage(extra[next++ % extra.length]!),
  });

  // Steady state after a compaction: the sticky view is extended, not recomputed.
  const sticky = await loaded(history, countingCounter());
  await sticky.getMessagesForRequest({ tokenBudget: BUDGET });
  next = 0;
  const stickyRequest = await measureAsync(() => sticky.getMessagesForRequest({ tokenBudget: BUDGET }), {
    runs: quick ? 50 : 200,
    setup: () => sticky.addMessage({ role: "user", content: `follow-up ${next++}` }),
  });

  // One compaction of the whole history, its tokens already counted.
  let compacting = await loaded(history, counter);
  const compaction = await measureAsync(() => compacting.getMessagesForRequest({ tokenBudget: BUDGET }), {
    runs,
    setup: async () => {
      compacting = await loaded(history, counter);
      await compacting.getMessagesForRequest({ tokenBudget: NO_COMPACTION });
    },
  });

  // The same compaction with the previous default, in the same run, for the ratio.
  let previous = await loaded(history, counter, PREVIOUS_DEFAULT);
  const previousCompaction = await measureAsync(() => previous.getMessagesForRequest({ tokenBudget: BUDGET }), {
    runs,
    setup: async () => {
      previous = await loaded(history, counter, PREVIOUS_DEFAULT);
      await previous.getMessagesForRequest({ tokenBudget: NO_COMPACTION });
    },
  });

  // Tokenizer calls over a whole session replayed message by message, a view after each message.
  const replayCounter = countingCounter();
  const replay = createSimpleContext({ tokenizer: replayCounter, maxTokens: BUDGET });
  for (const [index, message] of history.entries()) {
    await replay.addMessage(message);
    // An orchestrator asks for a view before each model call: before every assistant message.
    if (history[index + 1]?.role === "assistant") await replay.getMessagesForRequest();
  }
  await replay.getMessagesForRequest();

  return [
    {
      title: `context-simple, ${size.toLocaleString("en")} messages, ${historyTokens.toLocaleString("en")} tokens`,
      columns: ["measure", "median", "runs"],
      rows: [
        ["first request (counts every message once)", formatDuration(firstRequestMs), 1],
        ["request after one new message, no compaction", formatDuration(steadyRequest.medianMs), steadyRequest.samplesMs.length],
        ["request after one new message, sticky compacted view", formatDuration(stickyRequest.medianMs), stickyRequest.samplesMs.length],
        [
          `one compaction to a ${BUDGET.toLocaleString("en")}-token budget`,
          formatDuration(compaction.medianMs),
          compaction.samplesMs.length,
        ],
        [
          "the same compaction with the previous default (bare placeholders, threshold 0.92, target 0.6)",
          formatDuration(previousCompaction.medianMs),
          previousCompaction.samplesMs.length,
        ],
        ["tokenizer calls per history message over a replay", (replayCounter.calls / history.length).toFixed(3), 1],
        ["tokenizer calls per message for rewritten messages", (replayCounter.rewrittenCalls / history.length).toFixed(3), 1],
      ],
      notes: [
        "A steady-state request repairs and counts only the messages added since the last one, then copies the view's array.",
        "The replay requests a view before every assistant message, as an orchestrator does before each model call,",
        `with a ${BUDGET.toLocaleString("en")}-token budget; a compaction counts each message it rewrites (a cleared result, a trimmed text) once.`,
      ],
    },
  ];
}
