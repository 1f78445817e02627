// The summary strategy over a replayed 2 000-message session: summarizer calls and input tokens, and what reusing a checkpoint costs.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { billedTokens, cachedPrefixTokens, PRICE_MODELS } from "@ctxkit/cli/replay";
import { MemoryMessageStore, type SimpleContextConfig } from "@ctxkit/context-simple";
import { toProviderMessages, type ContextEventMap, type Message, type TokenCounter } from "@ctxkit/core";
import { ContextEngine, countMessageTokens, isSynthetic, resolveTokenCounter, type StateSnapshot } from "@ctxkit/core/kit";
import { readMessagesFile } from "@ctxkit/core/testing";
import {
  createSummaryStrategy,
  extractiveSummarizer,
  type Summarizer,
  type SummarizerRequest,
  type SummaryMetadata,
} from "@ctxkit/strategy-summary";
import type { BenchmarkOptions, Cell, Table } from "../lib/benchmark.js";
import { formatDuration, median } from "../lib/measure.js";
import { generateSession } from "../sessions/generate-session.js";

export const name = "summary";
export const description =
  "strategy-summary over a replayed 2 000-message session: summarizer calls per compaction, input tokens against re-summarizing everything, the cost of reusing a checkpoint";

const BUDGET = 32_000;
const SESSION_MESSAGES = 2_000;
/** The strategy's default: what the summarizer sees of each tool output and call argument. */
const MAX_TOOL_OUTPUT_CHARS = 2_000;
const transcriptsFolder = fileURLToPath(new URL("../../../../shared/data/transcripts/", import.meta.url));

interface SummarizerMeter {
  readonly summarizer: Summarizer;
  calls: number;
  /** Tokens of the previous summaries and messages sent, instructions left out (both sides would send them). */
  inputTokens: number;
  /** Calls offered the previous request as a cached prefix (`SummarizerRequest.conversation`). */
  offered: number;
  /** Whole summary requests, instructions included, billed under each price model: as a transcript, and reusing the prefix. */
  readonly billed: { transcript: number[]; reused: number[]; transcriptTokens: number; reusedTokens: number };
}

/**
 * What one summary request sends and how it is billed, both ways. Transcript: the instructions, previous summary and
 * rendered messages, which share no prefix with the agent's requests. Reused: the previous request's messages as
 * sent, then the ask; its prefix is that request's, which the provider cached, priced by the replay's pricing.
 */
function billSummaryRequest(meter: SummarizerMeter, request: SummarizerRequest, counter: TokenCounter, messageTokens: number): void {
  const transcript =
    countMessageTokens({ role: "system", content: request.instructions }, counter) +
    (request.previousSummary === undefined ? 0 : counter.count(request.previousSummary)) +
    messageTokens;
  const { conversation } = request;
  let reused = { total: transcript, cached: 0 };
  if (conversation !== undefined) {
    const sent = toProviderMessages(conversation.messages);
    const keys = sent.map((message) => JSON.stringify(message));
    const tokens = sent.map((message) => countMessageTokens(message, counter));
    const ask = { role: "user" as const, content: conversation.ask };
    const total = tokens.reduce((sum, count) => sum + count, 0) + countMessageTokens(ask, counter);
    reused = { total, cached: cachedPrefixTokens(keys, [...keys, JSON.stringify(ask)], [...tokens, 0]) };
  }
  meter.billed.transcriptTokens += transcript;
  meter.billed.reusedTokens += reused.total;
  PRICE_MODELS.forEach((model, index) => {
    meter.billed.transcript[index]! += billedTokens(model, transcript, 0);
    meter.billed.reused[index]! += billedTokens(model, reused.total, reused.cached);
  });
}

/** The extractive summarizer, counting what an LLM summarizer would be sent. */
function meterSummarizer(counter: TokenCounter): SummarizerMeter {
  const extractive = extractiveSummarizer();
  const meter: SummarizerMeter = {
    calls: 0,
    inputTokens: 0,
    offered: 0,
    billed: { transcript: PRICE_MODELS.map(() => 0), reused: PRICE_MODELS.map(() => 0), transcriptTokens: 0, reusedTokens: 0 },
    summarizer: async (request) => {
      meter.calls += 1;
      if (request.conversation !== undefined) meter.offered += 1;
      meter.inputTokens += request.previousSummary === undefined ? 0 : counter.count(request.previousSummary);
      let messageTokens = 0;
      for (const message of request.messages) messageTokens += countMessageTokens(message, counter);
      meter.inputTokens += messageTokens;
      billSummaryRequest(meter, request, counter, messageTokens);
      return extractive(request);
    },
  };
  return meter;
}

/** A message as the summarizer sees it, for the baseline: long tool outputs and arguments cut the strategy's way. */
function tokensAsSent(message: Message, counter: TokenCounter): number {
  const cut = (text: string) =>
    text.length <= MAX_TOOL_OUTPUT_CHARS ? text : `${text.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n[… characters not shown …]`;
  if (message.role === "tool" && typeof message.content === "string")
    return countMessageTokens({ ...message, content: cut(message.content) }, counter);
  if (message.role === "assistant" && message.tool_calls !== undefined) {
    const calls = message.tool_calls.map((call) => ({ ...call, function: { ...call.function, arguments: cut(call.function.arguments) } }));
    return countMessageTokens({ ...message, tool_calls: calls }, counter);
  }
  return countMessageTokens(message, counter);
}

function createManager(summarizer: Summarizer | undefined, store: MemoryMessageStore, onEvent?: SimpleContextConfig["onEvent"]) {
  const strategies: SimpleContextConfig["strategies"] =
    summarizer === undefined
      ? ["clear-tool-results", "truncate"]
      : ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"];
  return new ContextEngine(store, {
    maxTokens: BUDGET,
    tokenizer: "o200k_base",
    strategies,
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}

/** A store holding only strategy state, as a restarted process would find it. */
async function storeWithState(state: StateSnapshot | undefined): Promise<MemoryMessageStore> {
  const store = new MemoryMessageStore();
  await store.open();
  if (state !== undefined) await store.replace([], state);
  await store.close();
  return store;
}

interface ReplayResult {
  readonly label: string;
  readonly history: readonly Message[];
  readonly meter: SummarizerMeter;
  readonly state: StateSnapshot;
  readonly compactions: number;
  /** Summarizer calls made by each compaction that applied a summary. */
  readonly callsPerSummary: readonly number[];
  /** Baseline: at each summary, every message it covers sent again, from the first. */
  readonly naiveInputTokens: number;
  /** History length right after the last compaction that applied a summary. */
  readonly lastSummaryAt: number;
  readonly steadyRequestMs: readonly number[];
}

async function replay(label: string, history: readonly Message[], counter: TokenCounter): Promise<ReplayResult> {
  const meter = meterSummarizer(counter);
  const store = new MemoryMessageStore();
  let compactions = 0;
  let summaryApplied = false;
  const manager = createManager(meter.summarizer, store, (event, payload) => {
    if (event === "context:pre_compact") compactions += 1;
    if (event === "context:post_compact") {
      summaryApplied = (payload as ContextEventMap["context:post_compact"]).steps.some(
        (step) => step.strategy === "summary" && step.applied,
      );
    }
  });
  const sentTokens = history.map((message) => tokensAsSent(message, counter));
  const callsPerSummary: number[] = [];
  const steadyRequestMs: number[] = [];
  let naiveInputTokens = 0;
  let lastSummaryAt = 0;
  for (const [index, message] of history.entries()) {
    await manager.addMessage(message);
    const [callsBefore, compactionsBefore] = [meter.calls, compactions];
    summaryApplied = false;
    const started = performance.now();
    const view = await manager.getMessagesForRequest();
    if (compactions === compactionsBefore) steadyRequestMs.push(performance.now() - started);
    if (!summaryApplied) continue;
    callsPerSummary.push(meter.calls - callsBefore);
    lastSummaryAt = index + 1;
    const summary = view.find((candidate) => isSynthetic(candidate) && candidate.metadata?.ctxkit?.source === "summary");
    const coveredThrough = (summary?.metadata?.ctxkit?.["summary"] as SummaryMetadata | undefined)?.coveredThrough ?? -1;
    for (let covered = 0; covered <= coveredThrough; covered += 1) naiveInputTokens += sentTokens[covered]!;
  }
  const { state } = await store.load();
  return { label, history, meter, state, compactions, callsPerSummary, naiveInputTokens, lastSummaryAt, steadyRequestMs };
}

interface FreshRequest {
  readonly medianMs: number;
  readonly calls: number;
  readonly inputTokens: number;
}

/** A new manager (a restart) given `history`, timed over its first request; `state` is copied so every run starts alike. */
async function timeFreshRequest(
  history: readonly Message[],
  state: StateSnapshot | undefined,
  withSummary: boolean,
  runs: number,
  counter: TokenCounter,
): Promise<FreshRequest> {
  const samples: number[] = [];
  let calls = 0;
  let inputTokens = 0;
  for (let run = 0; run < runs + 1; run += 1) {
    const meter = meterSummarizer(counter);
    const manager = createManager(withSummary ? meter.summarizer : undefined, await storeWithState(state));
    await manager.setMessages(history as Message[]);
    const started = performance.now();
    await manager.getMessagesForRequest();
    // The first run warms the tokenizer and the JIT; it is not reported.
    if (run > 0) samples.push(performance.now() - started);
    [calls, inputTokens] = [meter.calls, meter.inputTokens];
  }
  return { medianMs: median(samples), calls, inputTokens };
}

function loadSessions(): Array<{ label: string; history: Message[] }> {
  const sessions = [
    {
      label: `generated, seed 42 (${SESSION_MESSAGES} messages)`,
      history: generateSession({ messages: SESSION_MESSAGES, meanOutputChars: 800 }),
    },
  ];
  if (existsSync(transcriptsFolder)) {
    const files = readdirSync(transcriptsFolder)
      .filter((file) => file.endsWith(".jsonl"))
      .sort();
    const history = files.flatMap((file) => readMessagesFile(`${transcriptsFolder}${file}`)).slice(0, SESSION_MESSAGES);
    sessions.push({ label: `real transcripts, concatenated (${history.length} messages)`, history });
  }
  return sessions;
}

const thousands = (value: number): Cell => Math.round(value);
const ratio = (value: number): string => `${value.toFixed(1)}×`;

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const counter = resolveTokenCounter("o200k_base");
  const runs = quick ? 3 : 9;
  const replays: ReplayResult[] = [];
  for (const session of loadSessions()) {
    process.stderr.write(`  summary: replaying ${session.label}\n`);
    replays.push(await replay(session.label, session.history, counter));
  }
  const reuseRows: Cell[][] = [];
  for (const result of replays) {
    process.stderr.write(`  summary: fresh requests on ${result.label}\n`);
    const history = result.history.slice(0, result.lastSummaryAt);
    const cached = await timeFreshRequest(history, result.state, true, runs, counter);
    const cold = await timeFreshRequest(history, undefined, true, runs, counter);
    const plain = await timeFreshRequest(history, undefined, false, runs, counter);
    const steady = median(result.steadyRequestMs);
    reuseRows.push(
      [
        result.label,
        "restart, checkpoint cached (reused)",
        history.length,
        formatDuration(cached.medianMs),
        cached.calls,
        thousands(cached.inputTokens),
      ],
      [result.label, "restart, nothing cached", history.length, formatDuration(cold.medianMs), cold.calls, thousands(cold.inputTokens)],
      [result.label, "restart, no summary strategy", history.length, formatDuration(plain.medianMs), "—", "—"],
      [result.label, "steady request between compactions (median)", "—", formatDuration(steady), 0, 0],
    );
  }

  return [
    {
      title: `Summarizer calls and input tokens over a replay, a request after every message (budget ${BUDGET.toLocaleString("en")}, o200k_base)`,
      columns: [
        "session",
        "requests",
        "compactions",
        "applied a summary",
        "summarizer calls",
        "calls / summary",
        "calls / compaction",
        "input tokens",
        "naive input tokens",
        "naive ÷ ours",
      ],
      rows: replays.map((result) => {
        const summaries = result.callsPerSummary.length;
        return [
          result.label,
          result.history.length,
          result.compactions,
          summaries,
          result.meter.calls,
          summaries === 0 ? "—" : (result.meter.calls / summaries).toFixed(2),
          result.compactions === 0 ? "—" : (result.meter.calls / result.compactions).toFixed(2),
          thousands(result.meter.inputTokens),
          thousands(result.naiveInputTokens),
          result.meter.inputTokens === 0 ? "—" : ratio(result.naiveInputTokens / result.meter.inputTokens),
        ];
      }),
      notes: [
        "Pipeline: [clear-tool-results, summary, truncate] in context-simple; the summarizer is the extractive one, metered as an LLM would be billed.",
        "Compactions that clear-tool-results settles alone never reach the summary, so they make no call.",
        "Input tokens: previous summary + the messages sent (tool outputs cut to 2 000 characters); instructions are left out of both columns.",
        "Naive: each summary re-sent every message it covers, from the first, with no previous summary.",
        "A summary sends more than one call only when its new messages exceed maxInputTokens (the budget, at least 16 000).",
      ],
    },
    {
      title: "Billed input of the summary requests over the replay, as a transcript and reusing the cached prefix (base-price tokens)",
      columns: [
        "session",
        "summarizer calls",
        "offered the prefix",
        "tokens sent, transcript",
        "tokens sent, prefix reuse",
        ...PRICE_MODELS.flatMap((model) => [`${model.name}, transcript`, `${model.name}, prefix reuse`, `${model.name}, ratio`]),
      ],
      rows: replays.map(({ label, meter }) => [
        label,
        meter.calls,
        meter.offered,
        thousands(meter.billed.transcriptTokens),
        thousands(meter.billed.reusedTokens),
        ...PRICE_MODELS.flatMap((_, index) => {
          const [transcript, reused] = [meter.billed.transcript[index]!, meter.billed.reused[index]!];
          return [thousands(transcript), thousands(reused), reused === 0 ? "—" : ratio(transcript / reused)];
        }),
      ]),
      notes: [
        "Whole requests, instructions included. Transcript: today's form (instructions as the system message, then the previous summary and the rendered messages); it shares no prefix with the agent's requests, so nothing of it is read from the cache.",
        "Prefix reuse (reuseCachedPrefix): the previous request's messages as sent, then one ask; that request cached them, so they are read at the cache price (@ctxkit/cli's prompt-cache pricing: Anthropic reads at 0.1× and writes the rest at 1.25×, OpenAI reads at 0.1× and the rest at 1×).",
        "A call is offered the prefix when what it summarizes stands whole, in order, in that request (a message clear-tool-results shortened there is not whole); a call not offered it is billed as a transcript in both columns.",
        "Prefix reuse sends more tokens (the whole previous request, recent messages included) but pays the cache price for nearly all of them.",
      ],
    },
    {
      title: "The cost of a request that reuses a checkpoint (median of warm runs)",
      columns: ["session", "request", "history", "time", "summarizer calls", "summarizer input tokens"],
      rows: reuseRows,
      notes: [
        "Restart: a new manager given the history as it was right after the replay's last summary, then one request (a compaction over the whole history).",
        "Cached: the strategy state from the replay, as context-persistent would reload it; the checkpoint is found by digest and reused without a call.",
        "Every restart row includes counting each message's tokens once, which a fresh manager must do anyway.",
      ],
    },
  ];
}
