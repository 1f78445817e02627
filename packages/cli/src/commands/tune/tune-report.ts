// What `ctxkit tune` prints (the frontier, the recommendation and its config) and writes (--json: the whole search).
import type { PriceModel } from "../../replay/prompt-cache-pricing.js";
import { formatElapsed } from "../progress.js";
import { formatTable } from "../format-table.js";
import type { ReplayReportSession } from "../replay/replay-report.js";
import type { ReplayFigures } from "../replay/replay-results.js";
import { describeConstraint, type TuneConstraint } from "./recommend-configuration.js";
import type { SearchedPoint, SearchStop } from "./search-configurations.js";
import type { TuneSpace } from "./tune-space.js";
import { mountPlanOf, SUMMARY_MODULE, type TunedConfig } from "./tuned-config.js";

/** One configuration replayed: its knobs, its config, and its figures over every session, or why it has none. */
export interface TunedPoint extends SearchedPoint {
  readonly label: string;
  readonly config: TunedConfig;
  readonly figures?: ReplayFigures;
  /** The error a replay threw: the point counts as faulty. */
  readonly failure?: string;
}

export interface TuneReport {
  readonly budget: number;
  readonly price: PriceModel;
  readonly constraint: TuneConstraint;
  readonly sessions: readonly ReplayReportSession[];
  readonly space: TuneSpace;
  readonly spaceSize: number;
  readonly maxConfigs: number;
  readonly timeLimitMs: number;
  readonly stop: SearchStop;
  readonly elapsedMs: number;
  /** In the order replayed. */
  readonly points: readonly TunedPoint[];
  readonly frontier: readonly TunedPoint[];
  readonly dominated: readonly TunedPoint[];
  readonly faulty: readonly TunedPoint[];
  readonly recommended?: TunedPoint;
}

const COLUMNS = [
  "",
  "cost",
  "retention",
  "threshold",
  "target",
  "keepRecent",
  "digest",
  "summary",
  "cache read",
  "mean view",
  "compactions",
];
const NUMERIC = new Set([1, 2, 3, 4, 5, 6, 8, 9, 10]);
const share = (value: number): string => `${(value * 100).toFixed(1)}%`;
const whole = (value: number): string => Math.round(value).toLocaleString("en");

function frontierCells(point: TunedPoint, recommended: TunedPoint | undefined): string[] {
  const { knobs, figures } = point;
  return [
    point === recommended ? "*" : "",
    `${point.cost.toFixed(2)}x`,
    share(point.retention),
    String(knobs.compactThreshold),
    String(knobs.targetRatio),
    String(knobs.keepRecent),
    String(knobs.digestIdentifiers),
    knobs.summary ? "on" : "off",
    figures === undefined ? "" : share(figures.cacheReadShare),
    figures === undefined ? "" : whole(figures.meanViewTokens),
    figures === undefined ? "" : whole(figures.compactions),
  ];
}

const STOPS: Record<SearchStop, (report: TuneReport) => string> = {
  converged: () => "no configuration next to the frontier was left to try",
  "max-configs": (report) => `stopped at --max-configs ${report.maxConfigs}`,
  // Under a second the limit is shown as given, not as "0s".
  "time-limit": (report) =>
    `stopped at --time-limit ${report.timeLimitMs < 1000 ? `${report.timeLimitMs}ms` : formatElapsed(report.timeLimitMs)}`,
};

/** The first configuration replayed, core's default thresholds: what the frontier is to be compared with. */
function startLine(report: TuneReport): string[] {
  const start = report.points[0];
  if (start === undefined) return [];
  const figures =
    start.failure !== undefined
      ? `failed: ${start.failure}`
      : `${start.cost.toFixed(2)}x, ${share(start.retention)} retention${start.faults > 0 ? `, ${start.faults} faults` : ""}`;
  return [`The search started from ${start.label}: ${figures}.`];
}

/** The text: the frontier (the recommendation marked *), what was searched and excluded, then the recommended config. */
export function formatTuneReport(report: TuneReport, header: (text: string) => string = (text) => text): string {
  const messages = report.sessions.reduce((sum, session) => sum + session.messages, 0);
  const lines = [
    header(
      `Pareto frontier, cost against retention, at a ${whole(report.budget)}-token budget (${report.sessions.length} session${report.sessions.length === 1 ? "" : "s"}, ${whole(messages)} messages, ${report.price.name} prices):`,
    ),
    "",
    report.frontier.length === 0
      ? "  (empty: every configuration replayed had a fault)"
      : formatTable({ columns: COLUMNS, numeric: NUMERIC, rows: report.frontier.map((point) => frontierCells(point, report.recommended)) }),
    "",
    `Searched ${report.points.length} of ${report.spaceSize} configurations in ${formatElapsed(report.elapsedMs)} (${STOPS[report.stop](report)}).`,
    `Excluded: ${report.dominated.length} dominated (another is as cheap and retains as much); ${report.faulty.length} with a refusal, a split tool pair, an over-budget view or a failed replay.`,
    ...startLine(report),
    "",
  ];
  const { recommended } = report;
  if (recommended === undefined) {
    lines.push(`No configuration searched meets the constraint: ${describeConstraint(report.constraint)}.`);
    return lines.join("\n");
  }
  const hasSummary = recommended.knobs.summary;
  lines.push(
    `Recommended, ${describeConstraint(report.constraint)}: ${recommended.cost.toFixed(2)}x, ${share(recommended.retention)} retention (${recommended.label}).`,
    "",
    hasSummary
      ? `createContextManager config (in code, put createSummaryStrategy() where it names ${SUMMARY_MODULE}):`
      : "createContextManager config:",
    JSON.stringify(recommended.config, null, 2),
    "",
    "The same as a mount plan (CTXKIT_MOUNT_PLAN, or ctxkit replay --config FILE):",
    JSON.stringify(mountPlanOf(recommended.config)),
  );
  return lines.join("\n");
}

const pointJson = (point: TunedPoint) => ({
  label: point.label,
  knobs: point.knobs,
  cost: point.cost,
  retention: point.retention,
  faults: point.faults,
  ...(point.failure === undefined ? {} : { failure: point.failure }),
  config: point.config,
  ...(point.figures === undefined ? {} : { figures: point.figures }),
});

/** Every configuration replayed with its figures, the frontier, what was excluded, and the recommendation with its mount plan. */
export function tuneReportJson(report: TuneReport): string {
  const { recommended } = report;
  return `${JSON.stringify(
    {
      budget: report.budget,
      price: { name: report.price.name, cacheRead: report.price.cacheRead, uncached: report.price.uncached },
      constraint: report.constraint,
      sessions: report.sessions,
      search: {
        space: report.space,
        size: report.spaceSize,
        maxConfigs: report.maxConfigs,
        timeLimitMs: report.timeLimitMs,
        stop: report.stop,
        elapsedMs: report.elapsedMs,
        searched: report.points.length,
        dominated: report.dominated.length,
        faulty: report.faulty.length,
      },
      frontier: report.frontier.map(pointJson),
      recommended: recommended === undefined ? null : { ...pointJson(recommended), mountPlan: mountPlanOf(recommended.config) },
      configurations: report.points.map(pointJson),
    },
    null,
    2,
  )}\n`;
}
