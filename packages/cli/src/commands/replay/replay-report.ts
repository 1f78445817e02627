// What `ctxkit replay` prints (the table) and writes (--json): the same figures, for people and for machines.
import { basename } from "node:path";
import type { PriceModel } from "../../replay/prompt-cache-pricing.js";
import { formatTable } from "../format-table.js";
import type { Configuration } from "./configurations.js";
import type { ReplayFigures } from "./replay-results.js";

export interface ReplayReportSession {
  readonly file: string;
  readonly format: string;
  readonly messages: number;
  readonly skipped: Readonly<Record<string, number>>;
}

export interface ReplayReportFailure {
  readonly file: string;
  /** 1-based, or 0 when the failure is not one line's. */
  readonly line: number;
  readonly configuration?: string;
  readonly budget?: number;
  readonly message: string;
}

export interface ReplayReport {
  readonly price: PriceModel;
  readonly budgets: readonly number[];
  readonly configurations: readonly Configuration[];
  readonly sessions: readonly ReplayReportSession[];
  readonly rows: readonly ReplayFigures[];
  readonly totals: readonly ReplayFigures[];
  readonly failures: readonly ReplayReportFailure[];
}

/** The table's columns, shared by the terminal table and the page. */
export const REPLAY_COLUMNS = [
  "configuration",
  "budget",
  "session",
  "calls",
  "cost",
  "cache read",
  "retention",
  "refusals",
  "pair faults",
  "over budget",
  "mean view",
  "compactions",
];
const NUMERIC = new Set([1, 3, 4, 5, 6, 7, 8, 9, 10, 11]);

const share = (value: number): string => `${(value * 100).toFixed(1)}%`;
const whole = (value: number): string => Math.round(value).toLocaleString("en");

/** One row's cells, in `REPLAY_COLUMNS` order, as the terminal table and the page show them. */
export function replayCells(figures: ReplayFigures): string[] {
  return [
    figures.configuration,
    whole(figures.budget),
    figures.file === undefined ? "all sessions" : basename(figures.file),
    whole(figures.requests),
    `${figures.cost.toFixed(2)}x`,
    share(figures.cacheReadShare),
    share(figures.retention),
    whole(figures.refusals),
    whole(figures.pairFaults),
    whole(figures.overBudget),
    whole(figures.meanViewTokens),
    whole(figures.compactions),
  ];
}

/** The table, then a line per session (its format and what its reader left out) and the notes. */
export function formatReplayReport(report: ReplayReport, header: (text: string) => string = (text) => text): string {
  // Each configuration's sessions, then its totals, budget by budget.
  const rows = report.configurations.flatMap((configuration) =>
    report.budgets.flatMap((budget) => {
      const own = report.rows.filter((row) => row.configuration === configuration.label && row.budget === budget);
      const total = report.totals.filter((row) => row.configuration === configuration.label && row.budget === budget);
      return [...own, ...(report.sessions.length > 1 ? total : [])].map(replayCells);
    }),
  );
  const sessions = report.sessions.map((session) => {
    const skipped = Object.entries(session.skipped).map(([kind, count]) => `${count} ${kind}`);
    return `  ${session.file} (${session.format}): ${session.messages.toLocaleString("en")} messages${skipped.length === 0 ? "" : `; left out: ${skipped.join(", ")}`}`;
  });
  const price = report.price;
  return [
    formatTable({ columns: REPLAY_COLUMNS, numeric: NUMERIC, rows }, header),
    "",
    "Sessions:",
    ...sessions,
    "",
    `Cost: billed input over every call ÷ the full history's, ${price.name} prices (cached prefix ${price.cacheRead}x, the rest ${price.uncached}x).`,
    "Retention: the share of identifiers each call used from earlier messages that were still in its view.",
  ].join("\n");
}

/** The report as JSON: the same figures as the table, and every session's and failure's details. */
export function replayReportJson(report: ReplayReport): string {
  return `${JSON.stringify(
    {
      price: { name: report.price.name, cacheRead: report.price.cacheRead, uncached: report.price.uncached },
      budgets: report.budgets,
      configurations: report.configurations.map(({ label, kind }) => ({ label, kind })),
      sessions: report.sessions,
      results: report.rows,
      totals: report.totals,
      failures: report.failures,
    },
    null,
    2,
  )}\n`;
}
