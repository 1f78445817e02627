// Child process of the cost benchmark: replays transcripts through one system at each budget, pricing and judging every view.
import { isInstruction, type Message } from "@ctxkit/core";
import { serveJobs } from "../lib/run-jobs-in-child.js";
import { MessageFacts, ViewJudge } from "../replay/view-judge.js";
import { readTranscript } from "../sessions/real-transcripts.js";
import type { CostJob, CostReport, CostTotals } from "./cost-protocol.js";
import { findCostSystem } from "./cost-systems.js";
import { countRetained, factsUsedByCalls } from "./extract-facts.js";
import { billedTokens, cachedPrefixTokens, PRICE_MODELS } from "./prompt-cache-pricing.js";

/** Messages and token counts are shared by every job of this process on the same transcript. */
const facts = new MessageFacts();
const transcripts = new Map<string, { messages: Message[]; factsByCall: Map<number, string[]> }>();

function loadTranscript(file: string) {
  let transcript = transcripts.get(file);
  if (transcript === undefined) {
    const messages = readTranscript(file);
    transcript = { messages, factsByCall: factsUsedByCalls(messages) };
    transcripts.set(file, transcript);
  }
  return transcript;
}

export function emptyCostTotals(): CostTotals {
  return { viewTokens: 0, cachedTokens: 0, billed: Object.fromEntries(PRICE_MODELS.map((model) => [model.name, 0])), facts: 0, retainedFacts: 0, emptyViews: 0 };
}

async function replay(job: CostJob, budget: number): Promise<CostReport> {
  const { messages, factsByCall } = loadTranscript(job.file);
  const session = findCostSystem(job.system).create(budget, (message) => facts.tokensOf(message));
  const judge = new ViewJudge(budget, facts);
  const cost = emptyCostTotals();
  const history: Message[] = [];
  let previousKeys: string[] = [];
  let milliseconds = 0;
  for (const [index, message] of messages.entries()) {
    if (message.role === "assistant" && history.length > 0) {
      const started = performance.now();
      const view = await session.request();
      milliseconds += performance.now() - started;
      judge.judge(history, view, undefined);
      const used = factsByCall.get(index) ?? [];
      cost.facts += used.length;
      if (view === "refused") {
        // Nothing is sent, and nothing the call used was in a view; the next request starts a new cache.
        previousKeys = [];
      } else {
        cost.retainedFacts += countRetained(used, view);
        if (view.every(isInstruction)) cost.emptyViews += 1;
        const keys = view.map((entry) => facts.keyOf(entry));
        const tokens = view.map((entry) => facts.tokensOf(entry));
        const total = tokens.reduce((sum, value) => sum + value, 0);
        const cached = cachedPrefixTokens(previousKeys, keys, tokens);
        cost.viewTokens += total;
        cost.cachedTokens += cached;
        for (const model of PRICE_MODELS) cost.billed[model.name]! += billedTokens(model, total, cached);
        previousKeys = keys;
      }
    }
    await session.add(message);
    history.push(message);
  }
  return { file: job.file, budget, view: judge.totals, cost, milliseconds };
}

serveJobs<CostJob, CostReport>(async (job, _index, context) => {
  await context.time(job.limitMs, async () => {
    for (const budget of job.budgets) await context.report(await replay(job, budget));
  });
});
