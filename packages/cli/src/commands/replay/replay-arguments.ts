// `ctxkit replay`'s command line, read with node:util's parseArgs into what the replay needs.
import { PRICING_BY_NAME, type PriceModel } from "../../replay/prompt-cache-pricing.js";
import { checkFormat, parseCommandLine, parseTokenCount } from "../command-line.js";
import { UsageError } from "../usage-error.js";
import type { ConfigurationName } from "./configurations.js";

export const DEFAULT_BUDGETS: readonly number[] = [24_000, 64_000];

export interface ReplayArguments {
  readonly help: boolean;
  readonly files: readonly string[];
  /** Presets and config files, in the order given: `--preset`, `--config`, then `--compare`'s list. */
  readonly configurations: readonly ConfigurationName[];
  readonly budgets: readonly number[];
  readonly price: PriceModel;
  readonly format?: string;
  /** A file, or "-" for stdout instead of the table. */
  readonly json?: string;
  readonly html?: string;
  readonly debug: boolean;
}

const OPTIONS = {
  preset: { type: "string" },
  config: { type: "string" },
  compare: { type: "string" },
  budget: { type: "string" },
  price: { type: "string" },
  "cache-read": { type: "string" },
  "cache-write": { type: "string" },
  format: { type: "string" },
  json: { type: "string" },
  html: { type: "string" },
  debug: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const parseBudget = (text: string) => parseTokenCount(text, "give whole numbers separated by commas, e.g. --budget 24000,64000");

function parseMultiplier(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0)
    throw new UsageError(option, `"${text}" is not a price multiplier: give a number of 0 or more, e.g. ${option} 0.5`);
  return value;
}

function parsePrice(values: Record<string, string | boolean | undefined>): PriceModel {
  const name = (values["price"] as string | undefined) ?? "anthropic";
  if (!Object.hasOwn(PRICING_BY_NAME, name))
    throw new UsageError("--price", `"${name}" is not a price model: give anthropic, openai or none`);
  const base = PRICING_BY_NAME[name as keyof typeof PRICING_BY_NAME];
  const cacheRead = parseMultiplier("--cache-read", values["cache-read"] as string | undefined);
  const cacheWrite = parseMultiplier("--cache-write", values["cache-write"] as string | undefined);
  return { name: base.name, cacheRead: cacheRead ?? base.cacheRead, uncached: cacheWrite ?? base.uncached };
}

const listOf = (text: string | undefined): string[] =>
  text === undefined
    ? []
    : text
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "");

/** The arguments after `replay`; a `UsageError` naming the option when they cannot run. */
export function parseReplayArguments(argv: readonly string[]): ReplayArguments {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const debug = values.debug === true;
  if (values.help === true) return { help: true, files: [], configurations: [], budgets: [], price: parsePrice({}), debug };
  if (positionals.length === 0) throw new UsageError("", "name at least one session file, e.g. ctxkit replay session.jsonl");
  const format = checkFormat(values.format);
  const budgets = values.budget === undefined ? DEFAULT_BUDGETS : listOf(values.budget).map(parseBudget);
  if (budgets.length === 0) throw new UsageError("--budget", "give at least one token count, e.g. --budget 24000");
  const configurations: ConfigurationName[] = [
    ...(values.preset === undefined ? [] : [{ name: values.preset, option: "--preset" as const }]),
    ...(values.config === undefined ? [] : [{ name: values.config, option: "--config" as const }]),
    ...listOf(values.compare).map((name) => ({ name, option: "--compare" as const })),
  ];
  if (values.compare !== undefined && listOf(values.compare).length === 0)
    throw new UsageError("--compare", "give presets or config files separated by commas, e.g. --compare default,truncate");
  if (values.json === "") throw new UsageError("--json", "give a file to write, or - for stdout");
  if (values.html === "" || values.html === "-")
    throw new UsageError("--html", "give a file to write (a page for a browser, e.g. --html replay.html)");
  return {
    help: false,
    files: positionals,
    // A configuration named twice is replayed once: its rows and totals would otherwise be counted twice.
    configurations:
      configurations.length === 0
        ? [{ name: "default", option: "--preset" }]
        : configurations.filter((entry, index) => configurations.findIndex((other) => other.name === entry.name) === index),
    budgets: [...new Set(budgets)],
    price: parsePrice(values),
    ...(format === undefined ? {} : { format }),
    ...(values.json === undefined ? {} : { json: values.json }),
    ...(values.html === undefined ? {} : { html: values.html }),
    debug,
  };
}
