// Child process of the replay benchmark: replays real transcripts through one system and judges every view.
import type { Message } from "@ctxkit/core";
import { serveJobs } from "../lib/run-jobs-in-child.js";
import { type ContextSession, type ContextSystem, createMeter, isRefusal } from "../peers/context-system.js";
import type { TrimSystem } from "../peers/langchain-trim.js";
import { MemoizedListCounter } from "../peers/memoized-list-counter.js";
import { loadSystem } from "../peers/systems.js";
import { generateSession } from "../sessions/generate-session.js";
import { readTranscript } from "../sessions/real-transcripts.js";
import type { ReplayJob, ReplayReport } from "./replay-protocol.js";
import { ViewJudge } from "./view-judge.js";

/**
 * Replays `messages` one by one, asking for a view before each assistant message (each model call).
 * Returns the time spent in requests, plus in `add` where the system's own add is timed.
 */
async function replay(session: ContextSession, messages: readonly Message[], budget: number, judge?: ViewJudge): Promise<number> {
  const history: Message[] = [];
  let milliseconds = 0;
  for (const message of messages) {
    if (message.role === "assistant" && history.length > 0) {
      let view: Message[] | "refused";
      const holesBefore = session.holes();
      const started = performance.now();
      try {
        const native = await session.request(budget);
        milliseconds += performance.now() - started;
        view = session.decode(native);
      } catch (error) {
        milliseconds += performance.now() - started;
        if (!isRefusal(error)) throw error;
        view = "refused";
      }
      judge?.judge(history, view, session.lastRequestCompacted(), session.holes() > holesBefore);
    }
    const started = performance.now();
    await session.add(message);
    if (session.isAddTimed) milliseconds += performance.now() - started;
    history.push(message);
  }
  return milliseconds;
}

const isTrimSystem = (system: ContextSystem): system is TrimSystem => "measure" in system;

/** Replays one transcript at every budget; a trimmer's memoized shares are kept across its budgets. */
async function replayTranscript(
  job: ReplayJob,
  messages: readonly Message[],
  report: (report: ReplayReport) => Promise<void>,
): Promise<void> {
  const system = await loadSystem(job.system);
  const trim = isTrimSystem(system) ? await import("../peers/langchain-trim.js") : undefined;
  const memoized = isTrimSystem(system) ? new MemoizedListCounter(system.measure, createMeter()) : undefined;
  for (const budget of job.budgets) {
    const judge = new ViewJudge(budget);
    const meter = createMeter();
    const common = { file: job.file, budget, messages: messages.length };
    if (memoized === undefined || trim === undefined) {
      const milliseconds = await replay(system.createSession(meter), messages, budget, judge);
      await report({ ...common, totals: judge.totals, milliseconds, timeKind: "measured", ...meter });
      continue;
    }
    // A quadratic trimmer: the same views from a memoized counter, its real counting time added back.
    memoized.useMeter(meter);
    const { skippedMs, extraMs } = memoized;
    const runMs = await replay(trim.createTrimSession(memoized.count), messages, budget, judge);
    const predictedMs = runMs - (memoized.extraMs - extraMs) + (memoized.skippedMs - skippedMs);
    const validationMs =
      predictedMs <= job.validateBelowMs ? await replay(system.createSession(createMeter()), messages, budget) : undefined;
    await report({
      ...common,
      totals: judge.totals,
      milliseconds: predictedMs,
      timeKind: "predicted",
      ...(validationMs === undefined ? {} : { validationMs }),
      ...meter,
    });
  }
}

serveJobs<ReplayJob, ReplayReport>(async (job, _index, context) => {
  // Encoders are built once per process, before anything is timed (the judge's is ctxkit's, so ctxkit warms it).
  (await loadSystem(job.system)).warmUp?.();
  const messages = job.generated === undefined ? readTranscript(job.file) : generateSession(job.generated);
  await context.time(job.limitMs, () => replayTranscript(job, messages, (report) => context.report(report)));
});
