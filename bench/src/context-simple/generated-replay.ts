// A generated session replayed message by message through ctxkit's default and the AI SDK's recipe, each
// system in its own child process (the replay benchmark's child), a view before each assistant message.
import { median } from "../lib/measure.js";
import { runJobsInChild } from "../lib/run-jobs-in-child.js";
import type { ReplayJob, ReplayReport } from "../replay/replay-protocol.js";
import type { GeneratedSessionOptions } from "../sessions/generate-session.js";

/** The systems compared: ctxkit first, the baseline of the ratio. */
const SYSTEMS = ["ctxkit", "ai-sdk"] as const;

export interface GeneratedReplayPoint {
  readonly budget: number;
  /** Views requested in one replay. */
  readonly requests: number;
  /** Median time of one whole replay: ctxkit's requests and addMessage, the AI SDK's requests. */
  readonly ctxkitMs: number;
  readonly aiSdkMs: number;
  /** ctxkit's compactions in one replay (`context:pre_compact`). */
  readonly compactions: number;
  /** Views over the budget or with a broken tool pair, per system, in the last replay: 0 for a correct one. */
  readonly ctxkitFaults: number;
  readonly aiSdkFaults: number;
}

/**
 * Replays `session` `runs` times per system at each budget and takes each system's median replay time.
 * The first replay in a child also warms its code: the median leaves it out once `runs` is 3 or more.
 */
export async function measureGeneratedReplay(
  session: GeneratedSessionOptions,
  budgets: readonly number[],
  runs: number,
): Promise<GeneratedReplayPoint[]> {
  const reports = new Map<string, ReplayReport[]>();
  for (const system of SYSTEMS) {
    const jobs: ReplayJob[] = Array.from({ length: runs }, () => ({
      system,
      file: `generated ${session.messages}-message session`,
      generated: session,
      budgets,
      limitMs: 120_000,
      validateBelowMs: 0,
    }));
    const outcomes = await runJobsInChild<ReplayJob, ReplayReport>(new URL("../replay/replay-child.ts", import.meta.url), jobs);
    const timedOut = outcomes.filter((outcome) => outcome.timedOut).length;
    if (timedOut > 0) throw new Error(`The generated replay through ${system} overran its ${jobs[0]!.limitMs} ms limit ${timedOut} times.`);
    reports.set(
      system,
      outcomes.flatMap((outcome) => outcome.reports),
    );
  }
  const of = (system: string, budget: number) => reports.get(system)!.filter((report) => report.budget === budget);
  const faults = (report: ReplayReport | undefined) => (report === undefined ? 0 : report.totals.overBudget + report.totals.pairViolations);
  return budgets.map((budget) => {
    const ctxkit = of("ctxkit", budget);
    const aiSdk = of("ai-sdk", budget);
    return {
      budget,
      requests: ctxkit[0]?.totals.requests ?? 0,
      ctxkitMs: median(ctxkit.map((report) => report.milliseconds)),
      aiSdkMs: median(aiSdk.map((report) => report.milliseconds)),
      compactions: ctxkit[0]?.totals.compactions ?? 0,
      ctxkitFaults: faults(ctxkit.at(-1)),
      aiSdkFaults: faults(aiSdk.at(-1)),
    };
  });
}
