// Child process of the per-request benchmark: times one system's requests on generated and pathological sessions.
import { type TokenCounter, tiktokenCounter } from "@ctxkit/core";
import { checkToolPairs } from "@ctxkit/core/kit";
import { type JobContext, serveJobs } from "../lib/run-jobs-in-child.js";
import { type ContextSession, type ContextSystem, createMeter, type Meter } from "../peers/context-system.js";
import { createCtxkitSession, meteredCounter } from "../peers/ctxkit-system.js";
import { loadSystem } from "../peers/systems.js";
import { MessageFacts } from "../replay/view-judge.js";
import { type GeneratedTurns, generateTurns } from "../sessions/model-call-turns.js";
import { PATHOLOGICAL_INPUTS, pathologicalSession } from "../sessions/pathological-session.js";
import { NOTHING_TO_DROP, type RequestJob, type RequestReport } from "./request-protocol.js";

const sessions = new Map<number, GeneratedTurns>();
function generated(size: number): GeneratedTurns {
  let session = sessions.get(size);
  if (session === undefined) {
    session = generateTurns(size);
    sessions.set(size, session);
  }
  return session;
}

const facts = new MessageFacts();

interface Run {
  /** Untimed: what comes before the timed step (a peer's new messages, a fresh manager for a compaction). */
  setup(run: number): Promise<void>;
  /** Timed: returns the session and its native view, for judging. */
  step(run: number): Promise<{ session: ContextSession; native: unknown }>;
}

async function sample(job: RequestJob, context: JobContext<RequestReport>, meter: Meter, run: Run): Promise<void> {
  const started = performance.now();
  for (let index = 0; index <= job.runs; index += 1) {
    await run.setup(index);
    const before = { ...meter };
    const { milliseconds, session, native } = await context.time(job.boundMs, async () => {
      const stepStarted = performance.now();
      const result = await run.step(index);
      return { milliseconds: performance.now() - stepStarted, ...result };
    });
    const isJudged = job.budget < NOTHING_TO_DROP;
    const view = isJudged ? session.decode(native) : [];
    await context.report({
      kind: "sample",
      milliseconds,
      isWarmup: index === 0,
      tokenizerCalls: meter.tokenizerCalls - before.tokenizerCalls,
      messagesMeasured: meter.messagesMeasured - before.messagesMeasured,
      compacted: session.lastRequestCompacted(),
      viewTokens: isJudged ? view.reduce((sum, message) => sum + facts.tokensOf(message), 0) : undefined,
      isPaired: isJudged ? checkToolPairs(view).length === 0 : undefined,
    });
    if (performance.now() - started > job.scenarioMs) break;
  }
}

/** A counter that answers from a cache while `isCaching`, so a compaction's setup does not recount the history each run. */
function cachingCounter(meter: Meter): TokenCounter & { isCaching: boolean } {
  const metered = meteredCounter(meter);
  const exact = tiktokenCounter("o200k_base");
  const cache = new Map<string, number>();
  const counter = {
    name: exact.name,
    isCaching: true,
    count(text: string): number {
      if (!counter.isCaching) return metered.count(text);
      let tokens = cache.get(text);
      if (tokens === undefined) {
        tokens = exact.count(text);
        cache.set(text, tokens);
      }
      return tokens;
    },
  };
  return counter;
}

function runFor(job: RequestJob, system: ContextSystem, meter: Meter): Run {
  if (job.scenario === "pathological") {
    const messages = pathologicalSession(PATHOLOGICAL_INPUTS[job.input!].text());
    let session: ContextSession | undefined;
    return {
      async setup() {
        session = system.createSession(meter);
        await session.load(messages);
      },
      step: async () => ({ session: session!, native: await session!.request(job.budget) }),
    };
  }
  const { history, turns } = generated(job.size);
  if (job.scenario === "compaction") {
    const counter = cachingCounter(meter);
    let session = createCtxkitSession(counter);
    return {
      async setup() {
        counter.isCaching = true;
        session = createCtxkitSession(counter);
        await session.load(history);
        await session.request(NOTHING_TO_DROP);
        counter.isCaching = false;
      },
      step: async () => ({ session, native: await session.request(job.budget) }),
    };
  }
  const session = system.createSession(meter);
  let isLoaded = false;
  const addTurn = async (index: number): Promise<void> => {
    for (const message of turns[index % turns.length]!) await session.add(message);
  };
  return {
    async setup(index) {
      if (!isLoaded) {
        isLoaded = true;
        await session.load(history);
        // ctxkit's first view counts the history once (and compacts it at a budget): not a steady-state request.
        if (session.isAddTimed) await session.request(job.budget);
      }
      if (!session.isAddTimed) await addTurn(index);
    },
    async step(index) {
      if (session.isAddTimed) await addTurn(index);
      return { session, native: await session.request(job.budget) };
    },
  };
}

serveJobs<RequestJob, RequestReport>(async (job, _index, context) => {
  if (job.skipIfTimedOut.some((index) => context.timedOut.includes(index))) {
    await context.report({ kind: "skipped" });
    return;
  }
  const system = await loadSystem(job.system);
  system.warmUp?.();
  const meter = createMeter();
  await sample(job, context, meter, runFor(job, system, meter));
});
