// The readable report: one line per check, then each failure with its counterexample as JSON.
import type { CheckResult, ConformanceReport, Counterexample } from "./report.js";

export interface FormatOptions {
  /** ANSI colours. Default false. */
  readonly color?: boolean;
  /** Strings longer than this are shortened in printed counterexamples. Default 1 000; `Infinity` keeps all. */
  readonly maxStringLength?: number;
  /** How to replay a failure, e.g. `ctxkit-conformance ./my-module`; shown with the seed and path. */
  readonly replayCommand?: string;
}

const NAME_WIDTH = 24;
const STATUS_LABELS = { pass: "pass", fail: "FAIL", skip: "skip" } as const;
const STATUS_COLORS = { pass: 32, fail: 31, skip: 33 } as const;

function paint(text: string, code: number, color: boolean): string {
  return color ? `\u001b[${code}m${text}\u001b[0m` : text;
}

function formatDuration(durationMs: number): string {
  return durationMs < 1_000 ? `${Math.round(durationMs)}ms` : `${(durationMs / 1_000).toFixed(1)}s`;
}

/**
 * The counterexample as JSON to paste into a test (with `replayCounterexample`). Huge strings are
 * shortened unless `maxStringLength` is `Infinity`; the note says so, because the result no longer replays.
 */
export function formatCounterexample(counterexample: Counterexample, maxStringLength = 1_000): string {
  let shortened = 0;
  const shorten = (value: unknown): unknown => {
    if (typeof value === "string") {
      if (value.length <= maxStringLength) return value;
      shortened += 1;
      return `${value.slice(0, maxStringLength)}… [${value.length - maxStringLength} more characters]`;
    }
    if (Array.isArray(value)) return value.map(shorten);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shorten(item)]));
  };
  // Only the input is shortened: the seed and path must stay exact to replay the case.
  const { property, seed, path, input } = counterexample;
  const json = JSON.stringify({ property, seed, path, input: shorten(input) }, null, 2);
  return shortened === 0 ? json : `${json}\n(${shortened} long string(s) shortened; --json, or the seed and path, give the exact input)`;
}

export function formatCheckLine(check: CheckResult, options: Pick<FormatOptions, "color"> = {}): string {
  const status = paint(STATUS_LABELS[check.status].padEnd(4), STATUS_COLORS[check.status], options.color === true);
  const runs = check.runs === undefined ? "" : `${check.runs} runs`;
  // How often the runs reached what the property checks: a pass over nothing would read as a pass.
  const exercised = check.exercised === undefined ? "" : `  ${check.exercised.count} ${check.exercised.what}`;
  const detail =
    check.status === "skip"
      ? `(${check.reason ?? "skipped"})`
      : `${runs.padStart(9)}  ${formatDuration(check.durationMs).padStart(6)}${exercised}${check.note === undefined ? "" : `  ${check.note}`}`;
  return `  ${status}  ${check.name.padEnd(NAME_WIDTH)}  ${detail}`.trimEnd();
}

function indent(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line) => prefix + line)
    .join("\n");
}

/** A failed check: what it requires, then each distinct failure with what to fix and its shrunk counterexample. */
export function formatFailure(check: CheckResult, options: FormatOptions = {}): string {
  const lines = [`${check.name}: ${check.description}`];
  const failures =
    check.failures ??
    (check.counterexample === undefined
      ? []
      : [{ reason: check.reason ?? "failed", counterexample: check.counterexample, fix: check.fix }]);
  if (failures.length === 0) lines.push(indent(check.reason ?? "failed", "  "));
  failures.forEach(({ reason, counterexample, fix }, index) => {
    if (failures.length > 1) {
      const regime = counterexample.regime === "above-minimal" ? " (with every budget above the minimal view)" : "";
      lines.push(`  Failure ${index + 1} of ${failures.length}${regime}:`);
    }
    lines.push(indent(reason, "  "));
    if (fix !== undefined) lines.push(`  Fix: ${fix}`);
    lines.push(`  Counterexample (shrunk ${counterexample.shrinks} time(s)):`);
    lines.push(indent(formatCounterexample(counterexample, options.maxStringLength ?? 1_000), "    "));
    if (options.replayCommand !== undefined) {
      const regime = counterexample.regime === undefined ? "" : ` --regime ${counterexample.regime}`;
      lines.push(
        `  Replay: ${options.replayCommand} --only ${check.name} --seed ${counterexample.seed} --path ${counterexample.path}${regime}`,
      );
    }
  });
  return lines.join("\n");
}

export function formatHeader(start: { subject: string; kind: string; seed: number; runs: number }): string {
  return `ctxkit conformance: ${start.subject} (${start.kind}), seed ${start.seed}, ${start.runs} runs per property`;
}

export function formatCapabilities(capabilities: ConformanceReport["capabilities"]): string {
  const listed = Object.entries(capabilities).map(([name, enabled]) => `${name} ${enabled ? "yes" : "no"}`);
  return `capabilities: ${listed.join(", ")}`;
}

/** The failures in full, then one verdict line. */
export function formatSummary(report: ConformanceReport, options: FormatOptions = {}): string {
  const lines: string[] = [];
  for (const failure of report.checks.filter((check) => check.status === "fail")) lines.push("", formatFailure(failure, options));
  const notes = report.checks.filter((check) => check.note !== undefined).map((check) => `${check.name}: ${check.note}`);
  if (notes.length > 0) lines.push("", ...notes);
  if (report.incomplete !== undefined) {
    const notRun = report.checks.filter((check) => check.status === "skip" && check.reason?.startsWith("not run:")).length;
    const why = report.incomplete.replace(/\.$/, "");
    lines.push("", `Incomplete: ${why}${notRun === 0 ? "." : `; ${notRun} check(s) were not run.`}`);
  }
  const { pass, fail, skip } = report.counts;
  const verdict = paint(report.passed ? "PASSED" : "FAILED", report.passed ? 32 : 31, options.color === true);
  lines.push("", `${verdict}: ${report.subject}: ${pass} passed, ${fail} failed, ${skip} skipped in ${formatDuration(report.durationMs)}`);
  return lines.join("\n");
}

export function formatReport(report: ConformanceReport, options: FormatOptions = {}): string {
  return [
    formatHeader(report),
    formatCapabilities(report.capabilities),
    "",
    ...report.checks.map((check) => formatCheckLine(check, options)),
    formatSummary(report, options),
  ].join("\n");
}
