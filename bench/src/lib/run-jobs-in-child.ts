// Runs a list of jobs in a child process, each timed step under its own time limit: a step that overruns
// is killed and reported, and a fresh child carries on with the next job.
import { type ChildProcess, fork } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/** What a job child sends; `report` carries the job's own data. */
export type JobMessage<Report> =
  | { readonly kind: "arm"; readonly job: number; readonly limitMs: number }
  | { readonly kind: "disarm"; readonly job: number }
  | { readonly kind: "report"; readonly job: number; readonly report: Report }
  | { readonly kind: "end"; readonly job: number };

/** What the parent sends a job child: the jobs, where to start, and which earlier jobs overran. */
export interface JobRequest<Job> {
  readonly jobs: readonly Job[];
  readonly from: number;
  readonly timedOut: readonly number[];
}

export interface JobOutcome<Report> {
  readonly reports: Report[];
  /** A timed step overran its limit and the child was killed during it. */
  timedOut: boolean;
  /** The limit of the step that overran. */
  limitMs: number;
}

/** How long a child may take to load and set up before its first timed step. */
const SETUP_LIMIT_MS = 120_000;
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** Hears each job end, so a long benchmark can show its progress. */
export type JobEndListener = (job: number, total: number) => void;

function runOnce<Job, Report>(
  module: URL,
  request: JobRequest<Job>,
  outcomes: JobOutcome<Report>[],
  onJobEnd: JobEndListener | undefined,
): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(fileURLToPath(module), [], {
      execArgv: ["--import", tsxLoader],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let current = request.from;
    let killedAt: number | undefined;
    let clock: NodeJS.Timeout | undefined;
    const arm = (limitMs: number, job: number | undefined): void => {
      clearTimeout(clock);
      clock = setTimeout(() => {
        killedAt = job ?? current;
        child.kill("SIGKILL");
      }, limitMs);
    };
    arm(SETUP_LIMIT_MS, undefined);
    child.on("message", (raw) => {
      const message = raw as JobMessage<Report>;
      current = message.job;
      const outcome = outcomes[message.job]!;
      switch (message.kind) {
        case "arm":
          outcome.limitMs = message.limitMs;
          arm(message.limitMs, message.job);
          break;
        case "disarm":
          arm(SETUP_LIMIT_MS, undefined);
          break;
        case "end":
          arm(SETUP_LIMIT_MS, undefined);
          onJobEnd?.(message.job, request.jobs.length);
          break;
        case "report":
          outcome.reports.push(message.report);
          break;
      }
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(clock);
      if (killedAt !== undefined) resolve(killedAt);
      else if (code === 0) resolve(undefined);
      else reject(new Error(`${fileURLToPath(module)} exited with ${code ?? signal}`));
    });
    child.send(request);
  });
}

/**
 * Runs `jobs` in order in child processes running `module` (see `serveJobs`). When a timed step
 * overruns, its job is marked timed out and a new child resumes at the next job.
 */
export async function runJobsInChild<Job, Report>(
  module: URL,
  jobs: readonly Job[],
  onJobEnd?: JobEndListener,
): Promise<JobOutcome<Report>[]> {
  const outcomes: JobOutcome<Report>[] = jobs.map(() => ({ reports: [], timedOut: false, limitMs: 0 }));
  let from = 0;
  while (from < jobs.length) {
    const timedOut = outcomes.flatMap((outcome, index) => (outcome.timedOut ? [index] : []));
    const killedAt = await runOnce(module, { jobs, from, timedOut }, outcomes, onJobEnd);
    if (killedAt === undefined) break;
    outcomes[killedAt]!.timedOut = true;
    from = killedAt + 1;
  }
  return outcomes;
}

/** The child's side of one job: reports, and a clock for each timed step. */
export interface JobContext<Report> {
  /** Starts the parent's kill clock for one step; `stop` ends it. */
  time<Result>(limitMs: number, step: () => Promise<Result> | Result): Promise<Result>;
  report(report: Report): Promise<void>;
  /** Indices of earlier jobs that overran, so a job can skip work bound to overrun too. */
  readonly timedOut: readonly number[];
}

function send(message: JobMessage<unknown>): Promise<void> {
  return new Promise((resolve) => process.send?.(message, undefined, {}, () => resolve()));
}

/** Call in the child module: runs each job from the request with `handle`, then disconnects. */
export function serveJobs<Job, Report>(handle: (job: Job, index: number, context: JobContext<Report>) => Promise<void>): void {
  if (process.send === undefined) return;
  process.once("message", (raw) => {
    void (async () => {
      const request = raw as JobRequest<Job>;
      for (let index = request.from; index < request.jobs.length; index += 1) {
        const context: JobContext<Report> = {
          timedOut: request.timedOut,
          report: (report) => send({ kind: "report", job: index, report }),
          async time(limitMs, step) {
            await send({ kind: "arm", job: index, limitMs });
            try {
              return await step();
            } finally {
              await send({ kind: "disarm", job: index });
            }
          },
        };
        await handle(request.jobs[index]!, index, context);
        await send({ kind: "end", job: index });
      }
      process.disconnect();
    })();
  });
}
