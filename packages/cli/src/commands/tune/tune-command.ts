// `ctxkit tune FILES… --budget N`: search the configurations on the user's sessions, print the frontier and the recommended config.
import { resolve } from "node:path";
import { FORMAT_NAMES } from "../../formats/detect-format.js";
import { readSession } from "../../formats/read-session.js";
import { createProgress, formatElapsed } from "../progress.js";
import { bold, type CommandIo, red, wantsColour } from "../terminal.js";
import { writeFileAtomically } from "../write-file-atomically.js";
import { createEvaluator, type TuneSession } from "./evaluate-configuration.js";
import { recommendConfiguration } from "./recommend-configuration.js";
import { searchConfigurations } from "./search-configurations.js";
import { DEFAULT_MAX_CONFIGS, DEFAULT_TIME_LIMIT_MS, parseTuneArguments } from "./tune-arguments.js";
import { splitFrontier } from "./tune-frontier.js";
import { formatTuneReport, type TunedPoint, type TuneReport, tuneReportJson } from "./tune-report.js";
import { countConfigurations, defaultTuneSpace, describeKnobs, type TuneKnobs } from "./tune-space.js";
import { configOfKnobs } from "./tuned-config.js";

/** The exit code when no configuration searched meets the constraint (or every one had a fault). */
export const NO_CONFIGURATION_EXIT_CODE = 1;

export const TUNE_USAGE = `Usage: ctxkit tune FILES… --budget N [--min-retention X | --max-cost X] [options]

Searches ctxkit's configurations on your agent's recorded sessions (compactThreshold, targetRatio, the tool
results kept and their digest's size, the summary on or off), replaying each at the budget, and prints the
Pareto frontier of cost against retention and the configuration that best meets your constraint, as JSON
for createContextManager and as a mount plan (CTXKIT_MOUNT_PLAN). A configuration with a refused view, a
split tool pair or a view over the budget is excluded.

Example:
  ctxkit tune ~/.claude/projects/my-app/*.jsonl --budget 32k --min-retention 0.95

Options:
  --budget N           the token budget to tune for (required; 32k is read as 32000)
  --min-retention X    recommend the cheapest with at least this retention (0.95 or 95%)
  --max-cost X         recommend the best retention at this cost or less (0.4: 40% of the full history's bill)
                       with neither: the cheapest within 5 points of the best retention found
  --max-configs N      replay at most N configurations (default: ${DEFAULT_MAX_CONFIGS})
  --time-limit T       stop searching after T: seconds, or 90s, 2m (default: ${formatElapsed(DEFAULT_TIME_LIMIT_MS)})
  --price MODEL        anthropic, openai or none (default: anthropic)
  --format NAME        the files' format, when it is not recognized:
                       ${FORMAT_NAMES.join(", ")}
  --json FILE|-        also write the whole search as JSON (- prints JSON instead of the text)
  --debug              show stack traces
  -h, --help           show this help

Exit codes: 0 done, 1 no configuration meets the constraint (the frontier is printed) or a file could not be
read, 2 a usage error.`;

export async function tuneCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const options = parseTuneArguments(argv);
  if (options.help) {
    io.stdout.write(`${TUNE_USAGE}\n`);
    return 0;
  }
  // A recommendation from some of the sessions would look like one from all of them: an unreadable file stops the tune.
  const loaded: (TuneSession & { format: string; skipped: Readonly<Record<string, number>> })[] = [];
  for (const file of options.files) {
    const session = await readSession(resolve(io.cwd, file), options.format === undefined ? {} : { format: options.format });
    loaded.push({ file, messages: session.messages, format: session.format, skipped: session.skipped });
  }
  const started = Date.now();
  // The deadline is checked after every message replayed, not left to a timer: a replay that never waits on
  // anything would never let a timer fire.
  const deadline = started + options.timeLimitMs;
  const timeLimit = new AbortController();
  const isTimeUp = (): boolean => {
    if (!timeLimit.signal.aborted && Date.now() >= deadline) timeLimit.abort(new Error("the time limit passed"));
    return timeLimit.signal.aborted && io.signal?.aborted !== true;
  };
  const signal = io.signal === undefined ? timeLimit.signal : AbortSignal.any([io.signal, timeLimit.signal]);
  const space = defaultTuneSpace();
  const spaceSize = countConfigurations(space);
  const progress = createProgress(io.stderr);
  let configIndex = 0;
  const evaluator = createEvaluator(loaded, {
    budget: options.budget,
    price: options.price,
    signal,
    onProgress: ({ fileIndex, replayed, total }) => {
      isTimeUp();
      progress.update(
        `tune: configuration ${configIndex}/${Math.min(options.maxConfigs, spaceSize)} · file ${fileIndex + 1}/${loaded.length} · ${replayed.toLocaleString("en")}/${total.toLocaleString("en")} messages · ${formatElapsed(Date.now() - started)}`,
      );
    },
  });
  const evaluate = async (knobs: TuneKnobs): Promise<TunedPoint> => {
    // A turn of the event loop between configurations, so Ctrl-C is seen during a long search.
    await new Promise<void>((resolve) => setImmediate(resolve));
    io.signal?.throwIfAborted();
    configIndex += 1;
    const label = describeKnobs(knobs);
    const config = configOfKnobs(knobs);
    try {
      const figures = await evaluator.evaluate(label, config);
      return {
        knobs,
        label,
        config,
        figures,
        cost: figures.cost,
        retention: figures.retention,
        faults: figures.refusals + figures.pairFaults + figures.overBudget,
      };
    } catch (error) {
      if (signal.aborted) throw error;
      // A configuration whose replay throws is reported, excluded as faulty, and the search goes on.
      const failure = error instanceof Error ? error.message : String(error);
      progress.done();
      io.stderr.write(`${red("ctxkit tune:", wantsColour(io.stderr, io.env))} ${label}: the replay failed: ${failure}\n`);
      if (options.debug && error instanceof Error && error.stack !== undefined) io.stderr.write(`${error.stack}\n`);
      return {
        knobs,
        label,
        config,
        failure,
        cost: Number.NaN,
        retention: Number.NaN,
        faults: 1,
      };
    }
  };
  const search = await searchConfigurations({
    space,
    constraint: options.constraint,
    maxConfigs: options.maxConfigs,
    evaluate,
    isTimeUp,
  }).finally(() => progress.done());
  const split = splitFrontier(search.points);
  const recommended = recommendConfiguration(split.frontier, options.constraint);
  const report: TuneReport = {
    budget: options.budget,
    price: options.price,
    constraint: options.constraint,
    sessions: loaded.map(({ file, format, messages, skipped }) => ({ file, format, messages: messages.length, skipped })),
    space,
    spaceSize,
    maxConfigs: options.maxConfigs,
    timeLimitMs: options.timeLimitMs,
    stop: search.stop,
    elapsedMs: Date.now() - started,
    points: search.points,
    ...split,
    ...(recommended === undefined ? {} : { recommended }),
  };
  if (options.json !== undefined && options.json !== "-") await writeFileAtomically(resolve(io.cwd, options.json), tuneReportJson(report));
  if (options.json === "-") io.stdout.write(tuneReportJson(report));
  else io.stdout.write(`${formatTuneReport(report, (text) => bold(text, wantsColour(io.stdout, io.env)))}\n`);
  return recommended === undefined ? NO_CONFIGURATION_EXIT_CODE : 0;
}
