// What each system's views cost under prompt caching, against what they keep of the facts each model call used.
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { reportJobProgress, type BenchmarkOptions, type Cell, type Table } from "../lib/benchmark.js";
import { formatBudget, formatRatio, formatShare } from "../lib/format.js";
import { formatDuration } from "../lib/measure.js";
import { runJobsInChild } from "../lib/run-jobs-in-child.js";
import { formatMarkdownTable } from "../lib/table.js";
import {
  ANTHROPIC_PRICING,
  addTotals,
  type ChartPoint,
  emptyCostTotals,
  emptyTotals,
  factsUsedByCalls,
  MAX_EARLIER_MESSAGES,
  MIN_CACHED_TOKENS,
  OPENAI_PRICING,
  PRICE_MODELS,
  renderCostChart,
  type ViewTotals,
} from "@ctxkit/cli/replay";
import { listTranscripts, readTranscript, TRANSCRIPTS_FOLDER, transcriptLabel } from "../sessions/real-transcripts.js";
import type { CostJob, CostReport, CostTotals } from "../cost/cost-protocol.js";
import { COST_SYSTEMS, type CostSystem } from "../cost/cost-systems.js";
import { isParetoGain } from "../cost/pareto-gain.js";

export const name = "cost";
export const description =
  "Billed input under prompt caching (Anthropic and OpenAI pricing) against retention of the facts each model call used, over the real transcripts at 24k and 64k";

/** The budgets of a plain run; `--budgets=12000,24000,40000,64000` replays others (smaller ones are where truncation dominates). */
const DEFAULT_BUDGETS: readonly number[] = [24_000, 64_000];
const REFERENCE = "full history";
/** The defaults a candidate must beat at every budget: the current one and the one before it. */
const INCUMBENTS = ["ctxkit default", "ctxkit default before the note"];
/** --quick replays these transcripts: small and mid-sized ones of each agent. */
const QUICK_TRANSCRIPTS = 5;
/** Child processes run side by side: the machine's two cores. */
const PARALLEL_CHILDREN = 2;
const resultsFolder = new URL("../../results/", import.meta.url);

interface Sum {
  view: ViewTotals;
  cost: CostTotals;
  milliseconds: number;
}

function sum(reports: readonly CostReport[]): Sum {
  const result: Sum = {
    view: emptyTotals(),
    cost: emptyCostTotals(),
    milliseconds: 0,
  };
  for (const report of reports) {
    addTotals(result.view, report.view);
    const { cost } = result;
    cost.viewTokens += report.cost.viewTokens;
    cost.cachedTokens += report.cost.cachedTokens;
    for (const model of PRICE_MODELS) cost.billed[model.name]! += report.cost.billed[model.name]!;
    cost.facts += report.cost.facts;
    cost.retainedFacts += report.cost.retainedFacts;
    cost.emptyViews += report.cost.emptyViews;
    result.milliseconds += report.milliseconds;
  }
  return result;
}

/** The figures of one system at one budget, as the JSON and the chart use them. */
export interface CostFigures {
  readonly system: string;
  readonly budget: number;
  readonly requests: number;
  readonly costAnthropic: number;
  readonly costOpenAI: number;
  readonly retention: number;
  readonly cacheReadShare: number;
  readonly meanViewTokens: number;
  readonly refused: number;
  readonly pairFaults: number;
  readonly overBudget: number;
  readonly emptyViews: number;
  readonly lostLatestUser: number;
  readonly facts: number;
  readonly milliseconds: number;
}

function figuresOf(system: string, budget: number, own: Sum, reference: Sum): CostFigures {
  const views = own.view.requests - own.view.refused;
  return {
    system,
    budget,
    requests: own.view.requests,
    costAnthropic: own.cost.billed[ANTHROPIC_PRICING.name]! / reference.cost.billed[ANTHROPIC_PRICING.name]!,
    costOpenAI: own.cost.billed[OPENAI_PRICING.name]! / reference.cost.billed[OPENAI_PRICING.name]!,
    retention: own.cost.facts === 0 ? 1 : own.cost.retainedFacts / own.cost.facts,
    cacheReadShare: own.cost.viewTokens === 0 ? 0 : own.cost.cachedTokens / own.cost.viewTokens,
    meanViewTokens: views === 0 ? 0 : own.cost.viewTokens / views,
    refused: own.view.refused,
    pairFaults: own.view.pairViolations,
    overBudget: own.view.overBudget,
    emptyViews: own.cost.emptyViews,
    lostLatestUser: own.view.lostLatestUser,
    facts: own.cost.facts,
    milliseconds: own.milliseconds,
  };
}

/** A row of the main table; `isPrecise` (a run with chosen budgets or systems) gives cost and retention to four places, as comparing defaults needs. */
function mainRow(figures: CostFigures, isPrecise: boolean): Cell[] {
  return [
    formatBudget(figures.budget),
    figures.system,
    isPrecise ? `${figures.costAnthropic.toFixed(4)}×` : formatRatio(figures.costAnthropic, 1),
    isPrecise ? `${figures.costOpenAI.toFixed(4)}×` : formatRatio(figures.costOpenAI, 1),
    isPrecise ? `${(figures.retention * 100).toFixed(2)}%` : formatShare(figures.retention, 1),
    formatShare(figures.cacheReadShare, 1),
    Math.round(figures.meanViewTokens),
    figures.refused,
    figures.pairFaults,
    figures.overBudget,
    figures.emptyViews,
    figures.lostLatestUser,
  ];
}

function printSamples(files: readonly string[]): void {
  for (const file of files) {
    const facts = [...factsUsedByCalls(readTranscript(file)).entries()].filter(([, used]) => used.length > 0);
    // Every fifth call with facts, so a sample spans the whole session deterministically.
    const sample = facts.filter((_, index) => index % 5 === 0).slice(0, 8);
    console.log(`\n  facts of ${transcriptLabel(file)} (${facts.length} calls with facts; message index: facts):`);
    for (const [index, used] of sample)
      console.log(`    #${index}: ${used.slice(0, 8).join("  ")}${used.length > 8 ? ` … (${used.length})` : ""}`);
  }
}

/** The value of `--name=value` among `flags`, or `undefined`. */
function flagValue(flags: readonly string[], name: string): string | undefined {
  const flag = flags.find((candidate) => candidate.startsWith(`${name}=`));
  return flag?.slice(name.length + 1);
}

/** `--budgets=12000,24000`: whole token counts, in the order given; the plain run's without the flag. */
function parseBudgets(flags: readonly string[]): readonly number[] {
  const value = flagValue(flags, "--budgets");
  if (value === undefined) return DEFAULT_BUDGETS;
  const budgets = value.split(",").map((part) => Number(part.trim()));
  if (budgets.length === 0 || budgets.some((budget) => !Number.isInteger(budget) || budget < 1_000))
    throw new Error(`cost: --budgets=${value} must list whole token counts of 1000 or more, e.g. --budgets=12000,24000,40000,64000`);
  return budgets;
}

/**
 * The systems a run replays: every one but the candidates in a plain run; with `--candidates`, the
 * candidates, the reference and both incumbents; with `--systems=label,label`, those labels and the same three.
 */
function selectSystems(flags: readonly string[]): readonly CostSystem[] {
  const isBaseline = (system: CostSystem) => system.label === REFERENCE || INCUMBENTS.includes(system.label);
  if (flags.includes("--candidates")) return COST_SYSTEMS.filter((system) => system.isCandidate === true || isBaseline(system));
  const value = flagValue(flags, "--systems");
  if (value === undefined) return COST_SYSTEMS.filter((system) => system.isCandidate !== true);
  const wanted = new Set(value.split(",").map((label) => label.trim()));
  const unknown = [...wanted].filter((label) => !COST_SYSTEMS.some((system) => system.label === label));
  if (unknown.length > 0)
    throw new Error(
      `cost: --systems names unknown systems: ${unknown.join(", ")}; the labels are ${COST_SYSTEMS.map((system) => system.label).join(", ")}`,
    );
  return COST_SYSTEMS.filter((system) => wanted.has(system.label) || isBaseline(system));
}

async function runAll(
  systems: readonly CostSystem[],
  files: readonly string[],
  budgets: readonly number[],
  quick: boolean,
): Promise<CostReport[][]> {
  // Jobs alternate between the children, the largest transcripts first so the two finish together.
  const jobs: CostJob[] = systems.flatMap((system) =>
    files.map((file) => ({ system: system.label, file, budgets, limitMs: quick ? 60_000 : 300_000 })),
  );
  const lanes: CostJob[][] = Array.from({ length: PARALLEL_CHILDREN }, () => []);
  jobs.forEach((job, index) => lanes[index % PARALLEL_CHILDREN]!.push(job));
  const outcomes = await Promise.all(
    lanes.map((lane, laneIndex) =>
      runJobsInChild<CostJob, CostReport>(
        new URL("../cost/cost-child.ts", import.meta.url),
        lane,
        reportJobProgress(`cost lane ${laneIndex + 1}`),
      ),
    ),
  );
  const killed = lanes.flatMap((lane, laneIndex) => lane.filter((_, index) => outcomes[laneIndex]![index]!.timedOut));
  if (killed.length > 0)
    throw new Error(`cost: replays killed at the safety limit: ${killed.map((job) => `${job.system} on ${job.file}`).join(", ")}`);
  return systems.map((system) =>
    lanes.flatMap((lane, laneIndex) =>
      lane.flatMap((job, index) => (job.system === system.label ? outcomes[laneIndex]![index]!.reports : [])),
    ),
  );
}

export async function run({ quick, flags = [] }: BenchmarkOptions): Promise<Table[]> {
  const all = listTranscripts();
  if (all.length === 0) {
    return [{ title: "Cost against retention: skipped", columns: ["note"], rows: [[`skipped: no *.jsonl in ${TRANSCRIPTS_FOLDER}`]] }];
  }
  const lengths = new Map(all.map((file) => [file, readTranscript(file).length]));
  // --quick: the shortest transcripts with more than a handful of calls.
  const files = quick
    ? [...all]
        .filter((file) => lengths.get(file)! >= 20)
        .sort((first, second) => lengths.get(first)! - lengths.get(second)!)
        .slice(0, QUICK_TRANSCRIPTS)
    : all;
  if (flags.includes("--samples")) printSamples(files);
  const budgets = parseBudgets(flags);
  const systems = selectSystems(flags);
  // Only a plain run (every system at the usual budgets) stands for the committed results and chart.
  const isPlainRun =
    flagValue(flags, "--budgets") === undefined && flagValue(flags, "--systems") === undefined && !flags.includes("--candidates");
  const started = performance.now();
  const reportsBySystem = await runAll(systems, files, budgets, quick);
  process.stderr.write(
    `  cost: ${systems.length} systems × ${files.length} transcripts × ${budgets.length} budgets took ${formatDuration(performance.now() - started)}\n`,
  );

  const referenceIndex = systems.findIndex((system) => system.label === REFERENCE);
  const figures = budgets.flatMap((budget) => {
    const reference = sum(reportsBySystem[referenceIndex]!.filter((report) => report.budget === budget));
    return systems.map((system, index) =>
      figuresOf(system.label, budget, sum(reportsBySystem[index]!.filter((report) => report.budget === budget)), reference),
    );
  });
  const perTranscript = (label: string): Cell[][] =>
    files.map((file) => {
      const reports = reportsBySystem[systems.findIndex((system) => system.label === label)]!.filter((report) => report.file === file);
      return [
        transcriptLabel(file),
        lengths.get(file)!,
        ...budgets.flatMap((budget) => {
          const report = reports.find((candidate) => candidate.budget === budget)!;
          return [`${report.view.refused}/${report.view.requests}`, formatShare(report.cost.retainedFacts, report.cost.facts)];
        }),
      ];
    });

  const totalMessages = files.reduce((total, file) => total + lengths.get(file)!, 0);
  const workload = `${files.length} transcripts, ${totalMessages.toLocaleString("en")} messages${quick ? " (--quick)" : ""}`;
  const tables: Table[] = [
    {
      title: `Cost against retention at ${budgets.map(formatBudget).join(", ")} (${workload})`,
      columns: [
        "budget",
        "system",
        "cost Anthropic",
        "cost OpenAI",
        "retention",
        "cache read",
        "mean view",
        "refused",
        "pair faults",
        "over budget",
        "empty",
        "lost latest user",
      ],
      rows: figures.map((row) => mainRow(row, !isPlainRun)),
      notes: [
        "A view is requested before each assistant message (each model call). Cost: billed input tokens over all requests ÷ the full history's, per price model.",
        `Cached prefix: the leading messages identical (JSON) to the previous request's, counted when they reach ${MIN_CACHED_TOKENS.toLocaleString("en")} tokens (exact o200k_base).`,
        "Anthropic: a cache breakpoint at the end of every request, the prefix read at 0.1×, every other input token written at 1.25×. OpenAI: the prefix at 0.1×, the rest at 1×.",
        "Retention: over all calls, the share of the facts a call used that were in its view. A fact is an identifier-like token (path, dotted, snake_case or camelCase name,",
        `id, date, long number) in the call's text or tool-call argument values that occurred in an earlier non-system message, in at most ${MAX_EARLIER_MESSAGES} of them, and in no system message.`,
        "Refused: ctxkit's ContextBudgetError; a refused request bills nothing and retains none of its facts, and the next request starts a new cache.",
        "Pair faults, over budget, lost latest user: views judged by core's checkToolPairs and exact counter, as in the replay benchmark. Empty: views with no message but system ones.",
        "Mean view: exact tokens per view that was given. Cache read: cached prefix tokens ÷ all view tokens.",
        ...systems.map((system) => system.summary),
      ],
    },
    ...(systems.some((system) => system.isCandidate === true) ? [candidateTable(systems, budgets, figures)] : []),
    ...["ctxkit default", "ctxkit previous default"]
      .filter((label) => systems.some((system) => system.label === label))
      .map((label) => ({
        title: `${label} per transcript: refused / requests and retention`,
        columns: [
          "transcript",
          "messages",
          ...budgets.flatMap((budget) => [`refused ${formatBudget(budget)}`, `retention ${formatBudget(budget)}`]),
        ],
        rows: perTranscript(label),
      })),
  ];
  if (isPlainRun) writeOutputs(systems, tables, figures, budgets, quick);
  else console.log("  a run with --budgets, --systems or --candidates leaves bench/results/cost.* as they are");
  return tables;
}

/** `own − other` in cost and retention points, with ✓ where it is a Pareto gain. */
function formatDelta(own: CostFigures, other: CostFigures): string {
  const signed = (value: number, digits: number) => `${value >= 0 ? "+" : ""}${value.toFixed(digits)}`;
  const gain = isParetoGain(own, other) ? " ✓" : "";
  return `${signed(own.costAnthropic - other.costAnthropic, 4)}× / ${signed((own.retention - other.retention) * 100, 2)} pt${gain}`;
}

/**
 * Each candidate (a system marked as one) against both incumbents at every budget: a candidate wins
 * only with a Pareto gain over both at every budget. No rows without `--candidates`.
 */
function candidateTable(systems: readonly CostSystem[], budgets: readonly number[], figures: readonly CostFigures[]): Table {
  const find = (label: string, budget: number) => figures.find((entry) => entry.system === label && entry.budget === budget)!;
  return {
    title: "Candidates against the default and the default before it: cost (Anthropic) and retention, ✓ a Pareto gain",
    columns: ["candidate", ...budgets.flatMap((budget) => INCUMBENTS.map((label) => `vs ${label} ${formatBudget(budget)}`)), "wins"],
    rows: systems
      .filter((system) => system.isCandidate === true)
      .map((candidate) => {
        const pairs = budgets.flatMap((budget) => INCUMBENTS.map((label) => [find(candidate.label, budget), find(label, budget)] as const));
        const wins = pairs.every(([own, other]) => isParetoGain(own, other));
        return [candidate.label, ...pairs.map(([own, other]) => formatDelta(own, other)), wins ? "yes" : "no"];
      }),
  };
}

function writeOutputs(
  systems: readonly CostSystem[],
  tables: readonly Table[],
  figures: readonly CostFigures[],
  budgets: readonly number[],
  quick: boolean,
): void {
  const environment = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpus()[0]?.model ?? "unknown",
    quick,
  };
  mkdirSync(resultsFolder, { recursive: true });
  writeFileSync(new URL("cost.json", resultsFolder), `${JSON.stringify({ ...environment, budgets, figures }, null, 2)}\n`);
  const header = `${environment.date} · Node ${environment.node} · ${environment.platform} · ${environment.cpu}${quick ? " · --quick" : ""}`;
  const markdown = [
    "# ctxkit cost against retention",
    "",
    header,
    "",
    "![cost against retention](cost.svg)",
    ...tables.flatMap((table) => ["", formatMarkdownTable(table)]),
  ];
  writeFileSync(new URL("cost.md", resultsFolder), `${markdown.join("\n")}\n`);
  const ablations = new Set(systems.filter((system) => system.isAblation === true).map((system) => system.label));
  const points: ChartPoint[] = figures
    .filter((entry) => (entry.system !== REFERENCE || entry.budget === budgets[0]) && !ablations.has(entry.system))
    .map((entry) => ({
      label: entry.system === REFERENCE ? entry.system : `${entry.system} · ${formatBudget(entry.budget)}`,
      cost: entry.costAnthropic,
      retention: entry.retention,
      series: formatBudget(entry.budget),
      isHighlighted: entry.system === "ctxkit default",
    }));
  writeFileSync(
    new URL("cost.svg", resultsFolder),
    renderCostChart(
      points,
      `Cost against retention${quick ? " (--quick)" : ""}: ${header}`,
      "billed input ÷ full history's, Anthropic pricing (cache read 0.1×, write 1.25×)",
    ),
  );
  console.log("  wrote bench/results/cost.md, cost.json and cost.svg");
}
