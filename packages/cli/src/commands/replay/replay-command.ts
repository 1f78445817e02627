// `ctxkit replay FILES…`: read the sessions, replay them through each configuration, print the table, write --json.
import { resolve } from "node:path";
import { ContextError } from "@ctxkit/core";
import { FORMAT_NAMES } from "../../formats/detect-format.js";
import { readSession } from "../../formats/read-session.js";
import { SessionReadError } from "../../formats/session-read-error.js";
import { createProgress, formatElapsed } from "../progress.js";
import { bold, type CommandIo, red, wantsColour } from "../terminal.js";
import { writeFileAtomically } from "../write-file-atomically.js";
import { PRESET_NAMES, resolveConfigurations } from "./configurations.js";
import { DEFAULT_BUDGETS, parseReplayArguments } from "./replay-arguments.js";
import {
  formatReplayReport,
  type ReplayReport,
  type ReplayReportFailure,
  type ReplayReportSession,
  replayReportJson,
} from "./replay-report.js";
import { renderReplayPage } from "./replay-page.js";
import { runReplays } from "./replay-results.js";

export const REPLAY_USAGE = `Usage: ctxkit replay FILES… [options]

Replays your agent's recorded sessions through ctxkit configurations, asking for a view before each model call,
and reports what the views would be billed under prompt caching (relative to sending the full history) and how
much of what each call used they kept.

Example:
  ctxkit replay ~/.claude/projects/my-app/*.jsonl --compare default,truncate --budget 32000

Options:
  --preset NAME        a preset: ${PRESET_NAMES.join(", ")} (default: default)
  --config FILE        a mount plan or a createContextManager config (JSON)
  --compare A,B,…      several presets or config files side by side
  --budget N,N,…       token budgets to replay at (default: ${DEFAULT_BUDGETS.join(",")})
  --price MODEL        anthropic, openai or none (default: anthropic)
  --cache-read X       price multiplier of cached input tokens (anthropic 0.1, openai 0.1)
  --cache-write X      price multiplier of the other input tokens (anthropic 1.25, openai 1)
  --format NAME        the files' format, when it is not recognized:
                       ${FORMAT_NAMES.join(", ")}
  --json FILE|-        also write the figures as JSON (- prints JSON instead of the table)
  --html FILE          also write one self-contained page: the cost-against-retention chart and the table
  --debug              show stack traces
  -h, --help           show this help

Exit codes: 0 done, 1 a file could not be read or replayed (the others are reported), 2 a usage error.`;

/** Where a failure happened, for the report's failures and the error line. */
function failureOf(error: unknown, file: string): ReplayReportFailure {
  if (error instanceof SessionReadError) return { file: error.file, line: error.line, message: error.message };
  return { file, line: 0, message: error instanceof Error ? error.message : String(error) };
}

export async function replayCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const options = parseReplayArguments(argv);
  if (options.help) {
    io.stdout.write(`${REPLAY_USAGE}\n`);
    return 0;
  }
  const errorColour = wantsColour(io.stderr, io.env);
  const reportError = (message: string, error?: unknown): void => {
    io.stderr.write(`${red("ctxkit replay:", errorColour)} ${message}\n`);
    if (options.debug && error instanceof Error && error.stack !== undefined) io.stderr.write(`${error.stack}\n`);
  };
  const configurations = await resolveConfigurations(options.configurations, io.cwd);
  const failures: ReplayReportFailure[] = [];
  const sessions: (ReplayReportSession & { messages: number; loaded: Awaited<ReturnType<typeof readSession>> })[] = [];
  for (const file of options.files) {
    try {
      const loaded = await readSession(resolve(io.cwd, file), options.format === undefined ? {} : { format: options.format });
      sessions.push({ file, format: loaded.format, messages: loaded.messages.length, skipped: loaded.skipped, loaded });
    } catch (error) {
      if (!(error instanceof ContextError)) throw error;
      const failure = failureOf(error, file);
      failures.push(failure);
      reportError(failure.message, error);
    }
  }
  const progress = createProgress(io.stderr);
  const started = Date.now();
  const run = await runReplays(
    sessions.map((session) => ({ file: session.file, messages: session.loaded.messages })),
    configurations,
    {
      budgets: options.budgets,
      price: options.price,
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      onProgress: ({ fileIndex, replayed, total }) =>
        progress.update(
          `replay: file ${fileIndex + 1}/${sessions.length} · ${replayed.toLocaleString("en")}/${total.toLocaleString("en")} messages · ${formatElapsed(Date.now() - started)}`,
        ),
      onFailure: ({ file, configuration, budget, error }) => {
        const message = `${file}: the replay through ${configuration} at ${budget} tokens failed: ${error instanceof Error ? error.message : String(error)}`;
        failures.push({ file, line: 0, configuration, budget, message });
        progress.done();
        reportError(message, error);
      },
    },
  ).finally(() => progress.done());
  const report: ReplayReport = {
    price: options.price,
    budgets: options.budgets,
    configurations,
    sessions: sessions.map(({ file, format, messages, skipped }) => ({ file, format, messages, skipped })),
    rows: run.rows,
    totals: run.totals,
    failures,
  };
  if (options.json !== undefined && options.json !== "-")
    await writeFileAtomically(resolve(io.cwd, options.json), replayReportJson(report));
  if (options.html !== undefined) await writeFileAtomically(resolve(io.cwd, options.html), renderReplayPage(report));
  if (options.json === "-") io.stdout.write(replayReportJson(report));
  else if (sessions.length > 0) io.stdout.write(`${formatReplayReport(report, (text) => bold(text, wantsColour(io.stdout, io.env)))}\n`);
  return failures.length > 0 ? 1 : 0;
}
