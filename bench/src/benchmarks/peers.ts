// The cost of one request, ctxkit against LangChain trimMessages and the AI SDK, on generated and pathological sessions.
import { tiktokenCounter } from "@ctxkit/core";
import { countMessageTokens } from "@ctxkit/core/kit";
import { reportJobProgress, type BenchmarkOptions, type Cell, type Table } from "../lib/benchmark.js";
import { formatBound, formatBudget, formatRatio } from "../lib/format.js";
import { formatDuration, median } from "../lib/measure.js";
import { type JobOutcome, runJobsInChild } from "../lib/run-jobs-in-child.js";
import { BASELINE, PROCESS_GROUPS, SYSTEMS } from "../peers/systems.js";
import { NOTHING_TO_DROP, type RequestJob, type RequestReport, type Scenario } from "../requests/request-protocol.js";
import { generateTurns } from "../sessions/model-call-turns.js";
import { PATHOLOGICAL_INPUTS, type PathologicalInput } from "../sessions/pathological-session.js";

export const name = "peers";
export const description = "Per-request cost of ctxkit against LangChain trimMessages and the AI SDK, each bounded in a child process";

const BUDGET = 128_000;
const PATHOLOGICAL_BUDGET = 4_000;

type Outcome = JobOutcome<RequestReport>;
type Sample = Extract<RequestReport, { kind: "sample" }>;

interface Settings {
  readonly sizes: readonly number[];
  readonly boundMs: number;
  readonly ctxkitRuns: number;
  readonly compactionRuns: number;
  readonly peerRuns: number;
  readonly ctxkitScenarioMs: number;
  readonly peerScenarioMs: number;
}

const FULL: Settings = {
  sizes: [1_000, 3_000, 10_000],
  boundMs: 10_000,
  ctxkitRuns: 200,
  compactionRuns: 7,
  peerRuns: 7,
  ctxkitScenarioMs: 3_000,
  peerScenarioMs: 5_000,
};
const QUICK: Settings = {
  sizes: [1_000],
  boundMs: 1_000,
  ctxkitRuns: 50,
  compactionRuns: 3,
  peerRuns: 3,
  ctxkitScenarioMs: 500,
  peerScenarioMs: 500,
};

/** The scenarios a system runs at each history length: a stateless peer's steady request and its compaction are one trim. */
function scenariosOf(system: string): Scenario[] {
  return system === BASELINE ? ["free", "steady", "compaction"] : ["free", "trim"];
}

/** One process group's jobs, in run order; a job's skip list points at the same scenario on shorter histories. */
function buildJobs(systems: readonly string[], settings: Settings): RequestJob[] {
  const jobs: RequestJob[] = [];
  for (const system of systems) {
    const isBaseline = system === BASELINE;
    const scenarioMs = isBaseline ? settings.ctxkitScenarioMs : settings.peerScenarioMs;
    for (const size of settings.sizes) {
      for (const scenario of scenariosOf(system)) {
        jobs.push({
          system,
          scenario,
          size,
          budget: scenario === "free" ? NOTHING_TO_DROP : BUDGET,
          runs: scenario === "compaction" ? settings.compactionRuns : isBaseline ? settings.ctxkitRuns : settings.peerRuns,
          boundMs: settings.boundMs,
          scenarioMs,
          skipIfTimedOut: jobs.flatMap((job, index) => (job.system === system && job.scenario === scenario ? [index] : [])),
        });
      }
    }
    for (const input of Object.keys(PATHOLOGICAL_INPUTS) as PathologicalInput[]) {
      jobs.push({
        system,
        scenario: "pathological",
        size: 0,
        input,
        budget: PATHOLOGICAL_BUDGET,
        runs: 3,
        boundMs: settings.boundMs,
        scenarioMs,
        skipIfTimedOut: [],
      });
    }
  }
  return jobs;
}

interface Cellwise {
  /** The median of warm runs, or the single cold run when no warm one fitted; undefined when over the bound. */
  readonly milliseconds: number | undefined;
  readonly text: string;
  readonly last: Sample | undefined;
  readonly samples: readonly Sample[];
}

function summarize(outcome: Outcome | undefined, boundMs: number): Cellwise {
  if (outcome === undefined) return { milliseconds: undefined, text: "—", last: undefined, samples: [] };
  const samples = outcome.reports.filter((report): report is Sample => report.kind === "sample");
  const warm = samples.filter((sample) => !sample.isWarmup);
  const skipped = outcome.reports.some((report) => report.kind === "skipped");
  if (outcome.timedOut || skipped)
    return { milliseconds: undefined, text: `${formatBound(boundMs)}${skipped ? "*" : ""}`, last: undefined, samples };
  const chosen = warm.length > 0 ? warm : samples;
  const milliseconds = median(chosen.map((sample) => sample.milliseconds));
  return { milliseconds, text: `${warm.length > 0 ? "" : "~"}${formatDuration(milliseconds)}`, last: samples.at(-1), samples: chosen };
}

function ratioCell(own: Cellwise, baseline: Cellwise, boundMs: number): string {
  if (own.milliseconds === undefined) return baseline.milliseconds === undefined ? "—" : formatRatio(boundMs, baseline.milliseconds, "> ");
  return formatRatio(own.milliseconds, baseline.milliseconds);
}

function viewCell(sample: Sample | undefined, budget: number): string {
  if (sample?.viewTokens === undefined) return "—";
  const problems = [sample.viewTokens > budget ? "over" : "", sample.isPaired === false ? "unpaired" : ""].filter(Boolean);
  return `${sample.viewTokens.toLocaleString("en-US")}${problems.length > 0 ? ` ${problems.join(", ")}` : ""}`;
}

/** Median tokenizer calls and messages measured per request. */
function meteredCell(cell: Cellwise): string {
  if (cell.milliseconds === undefined || cell.samples.length === 0) return "—";
  const calls = median(cell.samples.map((sample) => sample.tokenizerCalls));
  const measured = median(cell.samples.map((sample) => sample.messagesMeasured));
  return `${calls.toLocaleString("en-US")} / ${measured.toLocaleString("en-US")}`;
}

function describeHistory(size: number): string {
  const counter = tiktokenCounter("o200k_base");
  const { history } = generateTurns(size);
  const tokens = history.reduce((sum, message) => sum + countMessageTokens(message, counter), 0);
  return `${history.length.toLocaleString("en")} messages, ${tokens.toLocaleString("en")} tokens`;
}

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const settings = quick ? QUICK : FULL;
  const outcomes: { job: RequestJob; outcome: Outcome }[] = [];
  for (const group of PROCESS_GROUPS) {
    const started = performance.now();
    const jobs = buildJobs(group, settings);
    const results = await runJobsInChild<RequestJob, RequestReport>(
      new URL("../requests/request-child.ts", import.meta.url),
      jobs,
      reportJobProgress(`peers: ${group.join(", ")}`),
    );
    jobs.forEach((job, index) => outcomes.push({ job, outcome: results[index]! }));
    process.stderr.write(`  peers: ${group.join(", ")} took ${formatDuration(performance.now() - started)}\n`);
  }
  const find = (system: string, match: (job: RequestJob) => boolean): Cellwise =>
    summarize(outcomes.find((entry) => entry.job.system === system && match(entry.job))?.outcome, settings.boundMs);
  const cell = (system: string, size: number, scenario: Scenario): Cellwise =>
    find(system, (job) => job.size === size && job.scenario === scenario);

  const requestRows: Cell[][] = [];
  const compactedSteady: string[] = [];
  for (const size of settings.sizes) {
    const baseline = {
      free: cell(BASELINE, size, "free"),
      steady: cell(BASELINE, size, "steady"),
      compaction: cell(BASELINE, size, "compaction"),
    };
    const compacting = baseline.steady.samples.filter((sample) => sample.compacted === true);
    if (compacting.length > 0) {
      const time = formatDuration(median(compacting.map((sample) => sample.milliseconds)));
      compactedSteady.push(`${compacting.length} of ${baseline.steady.samples.length} at ${size.toLocaleString("en")} messages, ${time}`);
    }
    for (const system of SYSTEMS) {
      const isBaseline = system.name === BASELINE;
      const free = cell(system.name, size, "free");
      const steady = isBaseline ? baseline.steady : cell(system.name, size, "trim");
      const compaction = isBaseline ? baseline.compaction : steady;
      const { boundMs } = settings;
      requestRows.push([
        size.toLocaleString("en"),
        system.name,
        free.text,
        ratioCell(free, baseline.free, boundMs),
        steady.text,
        ratioCell(steady, baseline.steady, boundMs),
        compaction.text,
        ratioCell(compaction, baseline.compaction, boundMs),
        meteredCell(steady),
        viewCell(steady.last, BUDGET),
      ]);
    }
  }

  const pathologicalRows: Cell[][] = [];
  for (const input of Object.keys(PATHOLOGICAL_INPUTS) as PathologicalInput[]) {
    const baseline = find(BASELINE, (job) => job.input === input);
    for (const system of SYSTEMS) {
      const own = find(system.name, (job) => job.input === input);
      pathologicalRows.push([
        PATHOLOGICAL_INPUTS[input].label,
        system.name,
        own.text,
        ratioCell(own, baseline, settings.boundMs),
        meteredCell(own),
        viewCell(own.last, PATHOLOGICAL_BUDGET),
      ]);
    }
  }

  const sizes = settings.sizes.map((size) => `${size.toLocaleString("en")}: ${describeHistory(size)}`);
  return [
    {
      title: `Per request on a generated session (${formatBudget(BUDGET)} budget): median time, × ctxkit = time ÷ ctxkit's in the same column`,
      columns: [
        "messages",
        "system",
        "nothing to drop",
        "×",
        `steady, ${formatBudget(BUDGET)}`,
        "×",
        `compaction, ${formatBudget(BUDGET)}`,
        "×",
        "tokenizer calls / messages measured",
        "view tokens",
      ],
      rows: requestRows,
      notes: [
        `Histories (cut before a model call): ${sizes.join("; ")}. Seeded; parallel tool calls, outputs of ~1,400 characters, 5% ten times larger.`,
        "A request follows each model call's worth of new messages (an assistant message and its tool results, or a user turn), as an orchestrator asks.",
        "Nothing to drop: a budget above the whole history. ctxkit: addMessage for each new message + getMessagesForRequest, after its first view (which counted every message once).",
        `Steady: ctxkit extends its sticky view, no compaction due${compactedSteady.length > 0 ? ` (runs whose new messages crossed the threshold and compacted the sticky view: ${compactedSteady.join("; ")})` : ""};`,
        "a stateless peer trims the whole history on every request, so its steady and compaction cells are one measurement.",
        "Compaction: ctxkit compacts the whole history (every message already counted) down to the budget: the worst single request in a session.",
        "A peer's request includes nothing else: its history is held in its own message type, converted beforehand, untimed.",
        `ctxkit runs in a fresh child process, the peers in another. > bound: one request took longer than ${formatDuration(settings.boundMs)} and was killed;`,
        "*: not run, because the same request overran the bound on a shorter history. ~: a single cold run (no warm run fitted in the time).",
        "Tokenizer calls / messages measured: per steady request (median). View tokens: the last steady view, by core's exact counter; over = above the budget.",
        ...SYSTEMS.map((system) => system.summary),
      ],
    },
    {
      title: `Pathological text: the first view of a 6-message session whose tool result is one unbroken run (${formatBudget(PATHOLOGICAL_BUDGET)} budget)`,
      columns: ["tool result", "system", "first view", "× ctxkit", "tokenizer calls / messages measured", "view tokens"],
      rows: pathologicalRows,
      notes: [
        "The view must count the pathological message to fit the budget: js-tiktoken's merge is quadratic in a run's length, ctxkit caps each BPE piece.",
        "The tokens benchmark times the counting alone; here it is inside a whole request, the session built fresh for every run.",
      ],
    },
  ];
}
