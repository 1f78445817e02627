// Two workers summarizing one shared session at once: every summary checkpoint a returned view showed stays stored.
import { createHash, randomUUID } from "node:crypto";
import { ContextStateConflictError, type ContextEventMap, type EventHandler, type Message } from "@ctxkit/core";
import { assistantMessage, systemMessage, userMessage } from "@ctxkit/core/testing";
import { createSummaryStrategy, SUMMARY_STRATEGY_NAME, type Summarizer, type SummaryMetadata } from "@ctxkit/strategy-summary";
import { createSeededRandom } from "@ctxkit/test-support/seeded-random";
import { expect, it } from "vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";
import { PostgresMessageStore } from "./postgres-message-store.js";

const schema = "ctxkit_test";
const SEEDS = Array.from({ length: 12 }, (_, index) => index + 1);
const ROUNDS = 6;
/** Each request picks one, so the two workers' summaries sometimes end at the same message and sometimes not. */
const TOKEN_BUDGETS = [1_800, 2_000, 2_400];
/** The summary strategy keeps this many checkpoints (`MAX_CHECKPOINTS`); below it none is evicted, so each must be found. */
const CHECKPOINT_CAP = 16;

const pause = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/**
 * The same text for the same request, whichever worker sends it, after a random pause: two workers that
 * summarize the same span at once then race to store one checkpoint, and two that extend different
 * summaries to the same message store two.
 */
function fakeSummarizer(random: () => number, onCall: () => void): Summarizer {
  return async ({ messages, previousSummary }) => {
    onCall();
    await pause(random() * 15);
    const digest = createHash("sha256").update(JSON.stringify({ previousSummary, messages })).digest("hex").slice(0, 12);
    return `summary ${digest} of ${messages.length} messages`;
  };
}

/** What a returned view acknowledged: the summary it holds, as the last history index it covers and its text. */
function acknowledgedSummary(view: readonly Message[]): string | undefined {
  const message = view.find((candidate) => candidate.metadata?.ctxkit?.source === "summary");
  if (message === undefined) return undefined;
  const { coveredThrough } = message.metadata!.ctxkit!["summary"] as SummaryMetadata;
  // The fake summarizer's text is one line; the file lists follow it.
  const text = (message.content as string).slice("<summary>\n".length).split("\n")[0]!;
  return `${coveredThrough}: ${text}`;
}

/**
 * The checkpoints stored in the session, read by a store opened afresh once both workers closed. Every
 * record the summary strategy keeps (`checkpoint:…`) holds the history prefix it covers and its text.
 */
async function storedCheckpoints(connectionString: string, sessionId: string): Promise<Set<string>> {
  const store = new PostgresMessageStore({ connectionString, sessionId, schema });
  await store.open();
  const state = (await store.load()).state.get(SUMMARY_STRATEGY_NAME) ?? new Map<string, unknown>();
  await store.close();
  const stored = new Set<string>();
  for (const [key, value] of state) {
    if (!key.startsWith("checkpoint:")) continue;
    const { coveredThrough, text } = value as { coveredThrough: number; text: string };
    stored.add(`${coveredThrough}: ${text}`);
  }
  return stored;
}

const turnOf = (writer: string, round: number, turn: number): Message[] => [
  userMessage(`${writer} asks ${round}.${turn} `.padEnd(400, "q")),
  assistantMessage(`${writer} answers ${round}.${turn} `.padEnd(400, "a")),
];

describeWithPostgres("summary checkpoints of two workers compacting one session at once", (connectionString) => {
  it.each(SEEDS)(
    "should keep every checkpoint a returned view acknowledged, and lose no summary to a state conflict (seed %i)",
    async (seed) => {
      const sessionId = randomUUID();
      const random = createSeededRandom(seed);
      const strategyErrors: Array<ContextEventMap["context:strategy_error"]> = [];
      const onEvent: EventHandler = (event, payload) => {
        if (event === "context:strategy_error") strategyErrors.push(payload as ContextEventMap["context:strategy_error"]);
      };
      const calls = [0, 0];
      const open = (worker: number) =>
        createPostgresContext({
          connectionString,
          schema,
          sessionId,
          tokenizer: "estimate",
          safetyMargin: 0,
          strategies: [
            createSummaryStrategy({ summarizer: fakeSummarizer(random, () => (calls[worker]! += 1)), minNewTokens: 1 }),
            "truncate",
          ],
          onEvent,
        });
      const workers = [await open(0), await open(1)] as const;
      await workers[0].addMessage(systemMessage("be brief"));
      for (let turn = 0; turn < 8; turn += 1) for (const message of turnOf("setup", 0, turn)) await workers[0].addMessage(message);

      const acknowledged = new Set<string>();
      let racedRounds = 0;
      for (let round = 1; round <= ROUNDS; round += 1) {
        const callsBefore = [...calls];
        const views = await Promise.all(
          workers.map(async (worker) => {
            const tokenBudget = TOKEN_BUDGETS[Math.floor(random() * TOKEN_BUDGETS.length)]!;
            await pause(random() * 10);
            return worker.getMessagesForRequest({ tokenBudget });
          }),
        );
        if (calls.every((made, worker) => made > callsBefore[worker]!)) racedRounds += 1;
        for (const view of views) {
          const summary = acknowledgedSummary(view);
          if (summary !== undefined) acknowledged.add(summary);
        }
        // Both workers append between rounds, interleaved, so the next round's history is new to both.
        await Promise.all(
          workers.map(async (worker, index) => {
            for (let turn = 0; turn < 4; turn += 1)
              for (const message of turnOf(`w${index}`, round, turn)) await worker.addMessage(message);
          }),
        );
      }
      await Promise.all(workers.map((worker) => worker.close()));

      const stored = await storedCheckpoints(connectionString, sessionId);
      const summarizerCalls = calls[0]! + calls[1]!;
      // The test means something only if both workers summarized at once, and no checkpoint was evicted (one per call at most).
      expect(racedRounds).toBeGreaterThan(0);
      expect(summarizerCalls).toBeLessThan(CHECKPOINT_CAP);
      expect(acknowledged.size).toBeGreaterThanOrEqual(ROUNDS);
      expect({
        lost: [...acknowledged].filter((summary) => !stored.has(summary)),
        conflictErrors: strategyErrors.filter(({ error }) => error instanceof ContextStateConflictError).length,
        otherStrategyErrors: strategyErrors.filter(({ error }) => !(error instanceof ContextStateConflictError)),
      }).toEqual({ lost: [], conflictErrors: 0, otherStrategyErrors: [] });
    },
  );
});
