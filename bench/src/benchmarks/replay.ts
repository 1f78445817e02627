// Real transcripts replayed through ctxkit and its peers: correctness, behaviour and cost of every view.
import { statSync } from "node:fs";
import { reportJobProgress, type BenchmarkOptions, type Cell, type Table } from "../lib/benchmark.js";
import { formatBudget, formatLongDuration, formatRatio, formatShare } from "../lib/format.js";
import { formatDuration, median } from "../lib/measure.js";
import { runJobsInChild } from "../lib/run-jobs-in-child.js";
import { BASELINE, PROCESS_GROUPS, SYSTEMS } from "../peers/systems.js";
import type { ReplayJob, ReplayReport } from "../replay/replay-protocol.js";
import { addTotals, emptyTotals, type ViewTotals } from "../replay/view-judge.js";
import { listTranscripts, readTranscript, TRANSCRIPTS_FOLDER, transcriptLabel } from "../sessions/real-transcripts.js";

export const name = "replay";
export const description =
  "Real transcripts replayed message by message through ctxkit, LangChain trimMessages and the AI SDK: every view judged alike";

const BUDGETS = [8_000, 32_000, 128_000];
/** Checks of replays shorter than this measure the clock more than the prediction: left out of the ratios. */
const MIN_CHECKED_MS = 20;
/** A trimmer's replay predicted to take less than this also runs for real: a check, and the time used. */
const VALIDATE_BELOW_MS = 1_000;
const QUICK_VALIDATE_BELOW_MS = 100;
/** --quick replays the small transcripts only. */
const QUICK_MAX_BYTES = 120_000;

interface Outcome {
  readonly system: string;
  readonly reports: readonly ReplayReport[];
  /** Transcripts whose job overran its safety limit. */
  readonly killed: readonly string[];
}

interface Sum {
  totals: ViewTotals;
  milliseconds: number;
  isPredicted: boolean;
  tokenizerCalls: number;
  messagesMeasured: number;
}

function sum(reports: readonly ReplayReport[]): Sum {
  const result: Sum = { totals: emptyTotals(), milliseconds: 0, isPredicted: false, tokenizerCalls: 0, messagesMeasured: 0 };
  for (const report of reports) {
    addTotals(result.totals, report.totals);
    // A real replay's time where there is one, else the prediction.
    result.milliseconds += report.validationMs ?? report.milliseconds;
    result.isPredicted ||= report.timeKind === "predicted" && report.validationMs === undefined;
    result.tokenizerCalls += report.tokenizerCalls;
    result.messagesMeasured += report.messagesMeasured;
  }
  return result;
}

const views = (totals: ViewTotals): number => totals.requests - totals.refused;

function costRow(budget: number, system: string, own: Sum, baseline: Sum): Cell[] {
  const approximate = own.isPredicted ? "≈ " : "";
  return [
    formatBudget(budget),
    system,
    own.totals.requests,
    `${approximate}${formatLongDuration(own.milliseconds)}`,
    formatRatio(own.milliseconds, baseline.milliseconds, approximate),
    own.tokenizerCalls,
    own.messagesMeasured,
  ];
}

function correctnessRow(budget: number, system: string, own: Sum): Cell[] {
  const { totals } = own;
  return [
    formatBudget(budget),
    system,
    totals.requests,
    totals.refused,
    totals.malformed,
    totals.pairViolations,
    totals.overBudget,
    totals.lostSystem,
    totals.lostLatestUser,
  ];
}

function behaviourRow(budget: number, system: string, own: Sum): Cell[] {
  const { totals } = own;
  return [
    formatBudget(budget),
    system,
    ((totals.compactions / Math.max(1, totals.requests)) * 100).toFixed(1),
    views(totals) === 0 ? "—" : formatShare(totals.fillSum, views(totals)),
    formatShare(totals.extendingViews, totals.comparableViews),
    totals.comparableViews,
  ];
}

function perTranscriptRows(files: readonly string[], outcomes: readonly Outcome[]): Cell[][] {
  return files.flatMap((file) =>
    outcomes.map((outcome) => {
      if (outcome.killed.includes(file)) return [transcriptLabel(file), outcome.system, ...BUDGETS.map(() => "killed"), "—"];
      const cells = BUDGETS.map((budget) => {
        const report = outcome.reports.find((candidate) => candidate.file === file && candidate.budget === budget);
        if (report === undefined) return "—";
        const { totals } = report;
        return `${totals.pairViolations} · ${totals.overBudget} · ${totals.lostSystem + totals.lostLatestUser}`;
      });
      const refused = BUDGETS.map(
        (budget) => outcome.reports.find((candidate) => candidate.file === file && candidate.budget === budget)?.totals.refused ?? "—",
      ).join(" / ");
      return [transcriptLabel(file), outcome.system, ...cells, refused];
    }),
  );
}

function validationNote(outcomes: readonly Outcome[]): string[] {
  return outcomes.flatMap((outcome) => {
    if (!outcome.reports.some((report) => report.timeKind === "predicted")) return [];
    // Replays of a few milliseconds say more about the clock than about the prediction.
    const ratios = outcome.reports.flatMap((report) =>
      report.validationMs === undefined || report.milliseconds < MIN_CHECKED_MS ? [] : [report.validationMs / report.milliseconds],
    );
    if (ratios.length === 0)
      return [`${outcome.system}: no replay between ${MIN_CHECKED_MS} ms and the check limit, to run for real as a check.`];
    return [
      `${outcome.system}: predictions checked against ${ratios.length} real replays of ${MIN_CHECKED_MS} ms or more: real ÷ predicted = ${median(ratios).toFixed(2)} median (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}).`,
    ];
  });
}

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const all = listTranscripts();
  if (all.length === 0) {
    return [
      {
        title: "Real-transcript replay: skipped",
        columns: ["workload", "status"],
        rows: [["real transcripts", `skipped: no *.jsonl in ${TRANSCRIPTS_FOLDER}`]],
        notes: ["Put the shared transcripts beside the repository (../shared/data/transcripts/) to run this workload."],
      },
    ];
  }
  const lengths = new Map(all.map((file) => [file, readTranscript(file).length]));
  const files = quick ? all.filter((file) => statSync(`${TRANSCRIPTS_FOLDER}${file}`).size <= QUICK_MAX_BYTES) : all;
  const outcomes: Outcome[] = [];
  for (const group of PROCESS_GROUPS) {
    const started = performance.now();
    const jobs: ReplayJob[] = group.flatMap((system) =>
      files.map((file) => ({
        system,
        file,
        budgets: BUDGETS,
        limitMs: quick ? 30_000 : 180_000,
        validateBelowMs: quick ? QUICK_VALIDATE_BELOW_MS : VALIDATE_BELOW_MS,
      })),
    );
    const results = await runJobsInChild<ReplayJob, ReplayReport>(
      new URL("../replay/replay-child.ts", import.meta.url),
      jobs,
      reportJobProgress(`replay: ${group.join(", ")}`),
    );
    for (const system of group) {
      const own = results.filter((_, index) => jobs[index]!.system === system);
      outcomes.push({
        system,
        reports: own.flatMap((result) => result.reports),
        killed: files.filter((_, index) => own[index]!.timedOut),
      });
    }
    process.stderr.write(
      `  replay: ${group.join(", ")} over ${files.length} transcripts took ${formatDuration(performance.now() - started)}\n`,
    );
  }
  // Tables list the systems in SYSTEMS order, ctxkit first.
  outcomes.sort(
    (left, right) =>
      SYSTEMS.findIndex((system) => system.name === left.system) - SYSTEMS.findIndex((system) => system.name === right.system),
  );

  const sums = (budget: number) =>
    outcomes.map((outcome) => ({ system: outcome.system, sum: sum(outcome.reports.filter((report) => report.budget === budget)) }));
  const baselineOf = (budget: number) => sums(budget).find((entry) => entry.system === BASELINE)!.sum;
  const byBudget = <Row>(row: (budget: number, system: string, own: Sum, baseline: Sum) => Row): Row[] =>
    BUDGETS.flatMap((budget) => sums(budget).map((entry) => row(budget, entry.system, entry.sum, baselineOf(budget))));
  const totalMessages = files.reduce((total, file) => total + lengths.get(file)!, 0);
  const workload = `${files.length} transcripts, ${totalMessages.toLocaleString("en")} messages${quick ? `, the files under ${QUICK_MAX_BYTES / 1_000} KB (--quick)` : ""}`;
  const killed = outcomes.flatMap((outcome) => outcome.killed.map((file) => `${outcome.system} on ${transcriptLabel(file)}`));

  return [
    {
      title: `Replay totals: time and counting over whole replays (${workload})`,
      columns: ["budget", "system", "requests", "time", "× ctxkit", "tokenizer calls", "messages measured"],
      rows: byBudget(costRow),
      notes: [
        "A view is requested before each assistant message (each model call); time sums those requests, plus ctxkit's addMessage (validate, freeze).",
        "A peer's time excludes converting messages to its own type: an app built on it would hold them that way already.",
        "Tokenizer calls: exact BPE calls (ctxkit's count, js-tiktoken's encode). Messages measured: every per-message size computed, estimates included.",
        "≈: trimMessages re-counts the whole remaining prefix for every message it drops (quadratic), so its replays are bounded by a measured",
        "extrapolation instead of being run: the same trimMessages call with the counter memoized per message gives the same counts, hence the same",
        "views (all the correctness columns are exact), and each message's counting time, timed once, is added back for every later count.",
        `Replays predicted under ${formatDuration(VALIDATE_BELOW_MS)} (${formatDuration(QUICK_VALIDATE_BELOW_MS)} with --quick) also run for real; their real time is the one summed.`,
        ...validationNote(outcomes),
        ...(killed.length > 0 ? [`Killed at the safety limit, left out: ${killed.join(", ")}.`] : []),
      ],
    },
    {
      title: "Replay correctness: views judged by core's checkToolPairs and exact counter (countMessageTokens + o200k_base)",
      columns: [
        "budget",
        "system",
        "requests",
        "refused",
        "malformed",
        "pair violations",
        "over budget",
        "lost system",
        "lost latest user",
      ],
      rows: byBudget((budget, system, own) => correctnessRow(budget, system, own)),
      notes: [
        "Refused: ctxkit threw ContextBudgetError because even its minimal view (system, latest user turn, shortened) cannot fit: a correct answer.",
        "Malformed: trimMessages returned [undefined] (includeSystem, and no human message in the window it kept); judged as an empty view.",
        "Pair violations: views with a result not right after its call, or a call without its result. Over budget: exact tokens > budget.",
        "Lost: views missing a system/developer message, or the latest user message, unaltered. Each column counts views, not messages.",
        ...SYSTEMS.map((system) => system.summary),
      ],
    },
    {
      title: "Replay behaviour: compaction rate, fill and prompt-prefix stability",
      columns: ["budget", "system", "compactions / 100 requests", "mean fill", "prefix stability", "views compared"],
      rows: byBudget((budget, system, own) => behaviourRow(budget, system, own)),
      notes: [
        "Compactions: ctxkit's context:pre_compact (refused requests included); for a stateless trimmer, any view that is not the whole history unchanged.",
        "Mean fill: a view's exact tokens ÷ budget, averaged over views. Prefix stability: the share of views that begin with the previous view,",
        "which is what lets a provider's prompt cache reuse the prefix; views compared: those that follow a non-empty view (an empty view,",
        "or a refusal, has no prefix to keep).",
      ],
    },
    {
      title: "Replay correctness per transcript: pair violations · over budget · lost system or latest user (views), per budget",
      columns: ["transcript", "system", ...BUDGETS.map((budget) => `${formatBudget(budget)}`), "refused 8k / 32k / 128k"],
      rows: perTranscriptRows(files, outcomes),
    },
  ];
}
