// What each preset keeps of the real transcripts (verbatim, shortened, summarised, dropped) and how much of each request's prefix a prompt cache could reuse, against LangChain and the AI SDK.
import { createSimpleContext, type SimpleContextConfig } from "@ctxkit/context-simple";
import { estimateCounter, type ContentPart, type Message } from "@ctxkit/core";
import { countMessageTokens } from "@ctxkit/core/kit";
import { createSessionMemoryStrategy, createSummaryStrategy } from "@ctxkit/strategy-summary";
import type { BenchmarkOptions, Cell, Table } from "../lib/benchmark.js";
import { formatShare } from "../lib/format.js";
import { createMeter, isRefusal } from "../peers/context-system.js";
import { loadSystem } from "../peers/systems.js";
import { listTranscripts, readTranscript, TRANSCRIPTS_FOLDER } from "../sessions/real-transcripts.js";

export const name = "presets";
export const description =
  "ctxkit's presets and strategies against LangChain and the AI SDK on the real transcripts: what of the conversation is kept verbatim, shortened, summarised or dropped, and the prompt-cache prefix hit ratio";

const BUDGET = 24_000;
const counter = estimateCounter();

/** Computes a view before each model call, given what arrived since the previous one. */
interface Replayer {
  add(message: Message): Promise<void> | void;
  /** The view, or undefined when the system refuses because even its minimal view cannot fit (ctxkit's `ContextBudgetError`). */
  request(): Promise<Message[] | undefined>;
  /** Lets work between requests finish (session memory), so the replay does not depend on timing. */
  settle?(): Promise<void>;
}

interface SystemUnderTest {
  readonly label: string;
  create(): Replayer;
}

function ctxkit(label: string, config: () => SimpleContextConfig): SystemUnderTest {
  return {
    label,
    create() {
      const manager = createSimpleContext({ tokenizer: "estimate", ...config() });
      return {
        add: (message) => manager.addMessage(message),
        request: () =>
          manager.getMessagesForRequest({ tokenBudget: BUDGET }).catch((error: unknown) => {
            if (isRefusal(error)) return undefined;
            throw error;
          }),
        settle: () => manager.flushBackground(),
      };
    },
  };
}

function peer(label: string, system: string): SystemUnderTest {
  return {
    label,
    create() {
      let session: Awaited<ReturnType<Awaited<ReturnType<typeof loadSystem>>["createSession"]>> | undefined;
      const pending: Message[] = [];
      return {
        add: (message) => void pending.push(message),
        async request() {
          session ??= (await loadSystem(system)).createSession(createMeter());
          for (const message of pending.splice(0)) await session.add(message);
          return session.decode(await session.request(BUDGET));
        },
      };
    },
  };
}

const SYSTEMS: readonly SystemUnderTest[] = [
  ctxkit("ctxkit · preset truncate", () => ({ preset: "truncate" })),
  ctxkit("ctxkit · preset summarize (extractive)", () => ({ preset: "summarize", summaryStrategy: createSummaryStrategy() })),
  ctxkit("ctxkit · session-memory (extractive)", () => ({
    strategies: ["clear-tool-results", createSessionMemoryStrategy({ updateEveryTokens: 2_000 }), "truncate"],
  })),
  ctxkit("ctxkit · sliding-window 40", () => ({ strategies: ["sliding-window", "clear-tool-results", "truncate"] })),
  ctxkit("ctxkit · importance", () => ({ strategies: ["clear-tool-results", "importance"] })),
  peer("langchain trimMessages (approx)", "langchain · approx"),
  peer("ai-sdk pruneMessages", "ai-sdk"),
];

function textOf(content: string | ContentPart[] | null): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : `[${part.type}]`)).join("\n");
}

/** What a message says, whatever system's format it went through: role, text, tool ids and calls. */
function identity(message: Message): string {
  const calls =
    message.role === "assistant" ? (message.tool_calls ?? []).map((call) => [call.id, call.function.name, call.function.arguments]) : [];
  return JSON.stringify([message.role, textOf(message.content), message.role === "tool" ? message.tool_call_id : null, calls]);
}

interface Composition {
  verbatim: number;
  shortened: number;
  summarised: number;
  dropped: number;
  verbatimTokens: number;
  shortenedTokens: number;
  summarisedTokens: number;
  droppedTokens: number;
}

const emptyComposition = (): Composition => ({
  verbatim: 0,
  shortened: 0,
  summarised: 0,
  dropped: 0,
  verbatimTokens: 0,
  shortenedTokens: 0,
  summarisedTokens: 0,
  droppedTokens: 0,
});

/** Each history message's fate in the last view: matched in order, a changed tool result or a message with the same start counts as shortened. */
function compose(history: readonly Message[], tokens: readonly number[], view: readonly Message[], into: Composition): void {
  const identities = history.map(identity);
  const fate: Array<"verbatim" | "shortened" | "summarised" | undefined> = history.map(() => undefined);
  let next = 0;
  let coveredThrough = -1;
  for (const message of view) {
    const source = message.metadata?.ctxkit?.source;
    if (source === "summary") {
      const covered = (message.metadata?.ctxkit?.["summary"] as { coveredThrough?: number } | undefined)?.coveredThrough;
      if (typeof covered === "number") coveredThrough = Math.max(coveredThrough, covered);
      continue;
    }
    if (source !== undefined) continue;
    const key = identity(message);
    let found = -1;
    for (let index = next; index < history.length; index += 1) {
      if (identities[index] === key) {
        found = index;
        break;
      }
    }
    if (found >= 0) {
      fate[found] = "verbatim";
      next = found + 1;
      continue;
    }
    const head = textOf(message.content).slice(0, 40);
    for (let index = next; index < history.length; index += 1) {
      const original = history[index]!;
      const isSameResult = message.role === "tool" && original.role === "tool" && original.tool_call_id === message.tool_call_id;
      if (
        isSameResult ||
        (original.role === message.role && message.role !== "tool" && head !== "" && textOf(original.content).startsWith(head))
      ) {
        fate[index] = "shortened";
        next = index + 1;
        break;
      }
    }
  }
  history.forEach((_, index) => {
    const kind = fate[index] ?? (index <= coveredThrough ? "summarised" : "dropped");
    into[kind] += 1;
    into[`${kind}Tokens`] += tokens[index]!;
  });
}

/** Tokens of the longest common prefix of two consecutive views: what a provider's prompt cache could reuse. */
function commonPrefixTokens(previous: readonly string[], current: readonly string[], tokens: readonly number[]): number {
  let common = 0;
  for (let index = 0; index < current.length && index < previous.length && previous[index] === current[index]; index += 1)
    common += tokens[index]!;
  return common;
}

interface Totals extends Composition {
  historyTokens: number;
  prefixTokens: number;
  requestTokens: number;
  requests: number;
  refusals: number;
}

async function replay(system: SystemUnderTest, transcript: readonly Message[], totals: Totals): Promise<void> {
  const replayer = system.create();
  const tokens = transcript.map((message) => countMessageTokens(message, counter));
  let previous: string[] = [];
  let last: Message[] = [];
  for (let index = 0; index < transcript.length; index += 1) {
    const message = transcript[index]!;
    // Before each model call (an assistant message) the orchestrator asks for a view.
    if (message.role === "assistant" && index > 0) {
      await replayer.settle?.();
      const view = await replayer.request();
      totals.requests += 1;
      if (view === undefined) {
        totals.refusals += 1;
        previous = [];
        await replayer.add(message);
        continue;
      }
      last = view;
      const identities = last.map(identity);
      const viewTokens = last.map((entry) => countMessageTokens(entry, counter));
      const total = viewTokens.reduce((sum, value) => sum + value, 0);
      // Each transcript's first request has no previous one to share a prefix with.
      if (previous.length > 0) {
        totals.prefixTokens += commonPrefixTokens(previous, identities, viewTokens);
        totals.requestTokens += total;
      }
      previous = identities;
    }
    await replayer.add(message);
  }
  await replayer.settle?.();
  // After the last message; a refusal there leaves the last view that was given.
  last = (await replayer.request()) ?? last;
  compose(transcript, tokens, last, totals);
  totals.historyTokens += tokens.reduce((sum, value) => sum + value, 0);
}

export async function run(options: BenchmarkOptions): Promise<Table[]> {
  const files = listTranscripts();
  if (files.length === 0) {
    const message = `skipped: no transcripts in ${TRANSCRIPTS_FOLDER} (the shared data folder beside the repository is absent)`;
    console.log(`  ${message}`);
    return [{ title: "Presets on the real transcripts", columns: ["note"], rows: [[message]] }];
  }
  const selected = options.quick ? files.slice(0, 4) : files;
  const transcripts = selected.map((file) => readTranscript(file));
  const rows: Cell[][] = [];
  for (const system of SYSTEMS) {
    const totals: Totals = { ...emptyComposition(), historyTokens: 0, prefixTokens: 0, requestTokens: 0, requests: 0, refusals: 0 };
    for (const transcript of transcripts) await replay(system, transcript, totals);
    const whole = totals.historyTokens;
    rows.push([
      system.label,
      `${totals.verbatim} · ${formatShare(totals.verbatimTokens, whole)}`,
      `${totals.shortened} · ${formatShare(totals.shortenedTokens, whole)}`,
      `${totals.summarised} · ${formatShare(totals.summarisedTokens, whole)}`,
      `${totals.dropped} · ${formatShare(totals.droppedTokens, whole)}`,
      formatShare(totals.prefixTokens, totals.requestTokens),
      `${totals.refusals} / ${totals.requests}`,
    ]);
  }
  const messageCount = transcripts.reduce((sum, transcript) => sum + transcript.length, 0);
  return [
    {
      title: `What each system keeps of ${transcripts.length} real transcripts (${messageCount} messages) at a ${BUDGET / 1_000}k budget`,
      columns: ["system", "verbatim (msgs · tokens)", "shortened", "summarised", "dropped", "prefix cache hit", "refused"],
      rows,
      notes: [
        "Kept: each original message's fate in the view after the last message, summed over the transcripts; token shares are of the originals (chars/4 estimate, which every system budgets with here).",
        "Shortened: a tool result replaced by a placeholder or a text cut to its head and tail. Summarised: covered by a summary in the view.",
        "Prefix cache hit: over every request but each transcript's first, the tokens of the longest prefix identical to the previous request's view, as a share of all requests' tokens.",
        "Refused: requests ctxkit answered with ContextBudgetError (the latest turn alone is over the budget); the peers send an over-budget view instead. A refused request breaks the prefix chain.",
        "Summaries use the extractive summarizer (no LLM), so their text, not their coverage, differs from an LLM's.",
      ],
    },
  ];
}
