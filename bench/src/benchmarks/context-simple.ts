// context-simple on a generated 10 000-message session: steady-state requests, one compaction, tokenizer calls;
// then the first view of a 200 000-message session and a steady request's cost from 1 000 to 200 000 messages;
// then a generated 1 000-message replay through ctxkit and the AI SDK's recipe.
import { writeFileSync } from "node:fs";
import { tiktokenCounter, type Message, type TokenCounter } from "@ctxkit/core";
import { createSimpleContext, type SimpleContextConfig } from "@ctxkit/context-simple";
import type { BenchmarkOptions, Table } from "../lib/benchmark.js";
import { formatBudget } from "../lib/format.js";
import { formatDuration } from "../lib/measure.js";
import { measureAsync } from "../lib/measure-async.js";
import { generateSession } from "../sessions/generate-session.js";
import { measureFirstView, measureScaleCurve, scaleChart } from "../context-simple/session-scale.js";
import { measureGeneratedReplay } from "../context-simple/generated-replay.js";

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
const LARGE_BUDGET = 1_000_000;
/** The generated replay's budgets: the default's, and one that makes it compact every few requests. */
const REPLAY_BUDGETS = [BUDGET, 32_000];
const REPLAY_MESSAGES = 1_000;

/** The performance goals each figure is read against. */
const GOALS = {
  compactionP50Ms: 20,
  compactionP99Ms: 40,
  firstViewMs: 300,
  firstViewHeapBytes: 120_000_000,
  /** A steady request on the largest session costs at most this many times one on the smallest: O(new messages). */
  steadyGrowth: 2,
  /** The AI SDK's replay time ÷ ctxkit's, on the same generated replay, at each budget. */
  replayRatio: 1.5,
};

const percentile = (samples: readonly number[], share: number): number => {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
};

const megabytes = (bytes: number): string => `${Math.round(bytes / 1_000_000)} MB`;
const verdict = (isMet: boolean): string => (isMet ? "met" : "NOT met");

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
  const runs = quick ? 5 : 21;

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
    warmup: 2,
    setup: async () => {
      compacting = await loaded(history, counter);
      await compacting.getMessagesForRequest({ tokenBudget: NO_COMPACTION });
    },
  });

  // The same compaction with the previous default, in the same run, for the ratio.
  let previous = await loaded(history, counter, PREVIOUS_DEFAULT);
  const previousCompaction = await measureAsync(() => previous.getMessagesForRequest({ tokenBudget: BUDGET }), {
    runs,
    warmup: 2,
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

  // The large session: its first view at a 1M budget, then a steady request at each size up to it.
  const largest = quick ? 20_000 : 200_000;
  const sizes = (quick ? [1_000, 5_000, 20_000] : [1_000, 3_000, 10_000, 30_000, 100_000, 200_000]).filter((size) => size <= largest);
  const large = generateSession({ messages: largest, meanOutputChars: 400 });
  const firstView = await measureFirstView(large, LARGE_BUDGET, quick ? 1 : 3);
  const curve = await measureScaleCurve(large, sizes, { free: NO_COMPACTION, compacted: BUDGET }, quick ? 50 : 200);
  writeFileSync(new URL("../../results/scale-chart.md", import.meta.url), `${scaleChart(curve)}\n`);
  const smallest = curve[0]!;
  const biggest = curve.at(-1)!;
  // Read on the compacted view: the history grows, the view stays within the budget, as in a long session.
  const growth = biggest.stickyMs / smallest.stickyMs;
  // A generated session replayed through ctxkit and the AI SDK's recipe, each in its own child process.
  const generatedReplay = await measureGeneratedReplay(
    { messages: REPLAY_MESSAGES, meanOutputChars: 1_400 },
    REPLAY_BUDGETS,
    quick ? 3 : 5,
  );
  const compactionP50 = compaction.medianMs;
  const compactionP99 = percentile(compaction.samplesMs, 0.99);

  return [
    {
      title: `context-simple, ${size.toLocaleString("en")} messages, ${historyTokens.toLocaleString("en")} tokens`,
      columns: ["measure", "median", "p99", "runs", "goal"],
      rows: [
        ["first request (counts every message once)", formatDuration(firstRequestMs), "", 1, ""],
        [
          "request after one new message, no compaction",
          formatDuration(steadyRequest.medianMs),
          formatDuration(percentile(steadyRequest.samplesMs, 0.99)),
          steadyRequest.samplesMs.length,
          "",
        ],
        [
          "request after one new message, sticky compacted view",
          formatDuration(stickyRequest.medianMs),
          formatDuration(percentile(stickyRequest.samplesMs, 0.99)),
          stickyRequest.samplesMs.length,
          "",
        ],
        [
          `one compaction to a ${BUDGET.toLocaleString("en")}-token budget`,
          formatDuration(compactionP50),
          formatDuration(compactionP99),
          compaction.samplesMs.length,
          `≤ ${GOALS.compactionP50Ms} ms p50, ≤ ${GOALS.compactionP99Ms} ms p99: ${verdict(compactionP50 <= GOALS.compactionP50Ms && compactionP99 <= GOALS.compactionP99Ms)}`,
        ],
        [
          "the same compaction with the previous default (bare placeholders, threshold 0.92, target 0.6)",
          formatDuration(previousCompaction.medianMs),
          formatDuration(percentile(previousCompaction.samplesMs, 0.99)),
          previousCompaction.samplesMs.length,
          "",
        ],
        ["tokenizer calls per history message over a replay", (replayCounter.calls / history.length).toFixed(3), "", 1, ""],
        ["tokenizer calls per message for rewritten messages", (replayCounter.rewrittenCalls / history.length).toFixed(3), "", 1, ""],
      ],
      notes: [
        "A steady-state request repairs and counts only the messages added since the last one, then copies the view's array.",
        "The replay requests a view before every assistant message, as an orchestrator does before each model call,",
        `with a ${BUDGET.toLocaleString("en")}-token budget; a compaction counts each message it rewrites (a cleared result, a trimmed text) once.`,
        `p99 is the slowest run or close to it: ${runs} runs after 2 untimed ones, each on a fresh manager whose messages are already counted.`,
      ],
    },
    {
      title: `The first view of a ${firstView.messages.toLocaleString("en")}-message session at a ${formatBudget(firstView.budget)} budget`,
      columns: ["measure", "figure", "goal"],
      rows: [
        [
          `time (median of ${firstView.runs})`,
          formatDuration(firstView.medianMs),
          `≤ ${GOALS.firstViewMs} ms: ${verdict(firstView.medianMs <= GOALS.firstViewMs)}`,
        ],
        [
          "heap allocated by the call, above the messages",
          megabytes(firstView.allocatedBytes),
          `≤ ${megabytes(GOALS.firstViewHeapBytes)}: ${verdict(firstView.allocatedBytes <= GOALS.firstViewHeapBytes)}`,
        ],
        ["heap still held after a full collection, above the messages", megabytes(firstView.retainedBytes), ""],
        ["messages in the view", firstView.viewMessages, ""],
      ],
      notes: [
        "The estimate counter (no tokenizer load); the call counts every message once, builds the view and compacts it to the budget.",
        "Heap figures start from the manager already holding the messages, after a full collection; the allocated figure is",
        "the heap's growth across the call before any collection after it (the largest of the runs).",
      ],
    },
    {
      title: `A generated ${REPLAY_MESSAGES.toLocaleString("en")}-message session replayed message by message: ctxkit's default and the AI SDK's recipe`,
      columns: [
        "budget",
        "requests",
        "ctxkit compactions",
        "ctxkit",
        "AI SDK",
        "AI SDK ÷ ctxkit",
        "faulty views (ctxkit · AI SDK)",
        "goal",
      ],
      rows: generatedReplay.map((point) => {
        const ratio = point.aiSdkMs / point.ctxkitMs;
        return [
          formatBudget(point.budget),
          point.requests,
          point.compactions,
          formatDuration(point.ctxkitMs),
          formatDuration(point.aiSdkMs),
          `${ratio.toFixed(2)}×`,
          `${point.ctxkitFaults} · ${point.aiSdkFaults}`,
          `≥ ${GOALS.replayRatio}×: ${verdict(ratio >= GOALS.replayRatio)}`,
        ];
      }),
      notes: [
        "The replay benchmark's child process and systems (ctxkit: context-simple's defaults and the exact o200k_base counter; the AI SDK:",
        "its cookbook's pruneMessages over an estimated threshold, then the last messages that fit), on a generated session",
        `(generateSession, tool outputs of 1,400 characters on average): a view before each assistant message. Each figure is the median of`,
        `${quick ? 3 : 5} whole replays in one process per system; ctxkit's time includes its addMessage (validate, freeze).`,
        "Faulty views: over the budget (exact count) or with a broken tool pair, in the last replay.",
      ],
    },
    {
      title: "A steady request against session size (estimate counter): O(new messages)",
      columns: ["messages", "no compaction", "× at the smallest", `sticky compacted view (${formatBudget(BUDGET)})`, "× at the smallest"],
      rows: curve.map((point) => [
        point.messages.toLocaleString("en"),
        formatDuration(point.freeMs),
        `${(point.freeMs / smallest.freeMs).toFixed(2)}×`,
        formatDuration(point.stickyMs),
        `${(point.stickyMs / smallest.stickyMs).toFixed(2)}×`,
      ]),
      notes: [
        "Each figure is the median request after one new message, on the first N messages of one generated session.",
        `Goal: flat, at most ${GOALS.steadyGrowth}× the smallest session's figure at the largest, on the compacted view: ${growth.toFixed(2)}×, ${verdict(growth <= GOALS.steadyGrowth)}.`,
        "Without compaction the view is the whole history, and a request returns a new array of it: that copy, not the work of the",
        "request, grows with the session (a few nanoseconds a message, more once the array is large enough to be allocated apart).",
        "The chart of this table is written to results/scale-chart.md.",
      ],
    },
  ];
}
