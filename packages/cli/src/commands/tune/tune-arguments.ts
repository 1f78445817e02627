// `ctxkit tune`'s command line, read with node:util's parseArgs; a bad value is a UsageError naming its option.
import { checkFormat, parseCommandLine, parseTokenCount } from "../command-line.js";
import { PRICING_BY_NAME, type PriceModel } from "../../replay/prompt-cache-pricing.js";
import { UsageError } from "../usage-error.js";
import type { TuneConstraint } from "./recommend-configuration.js";

/** The search's bounds when none is given: a few dozen replays, and never more than five minutes. */
export const DEFAULT_MAX_CONFIGS = 40;
export const DEFAULT_TIME_LIMIT_MS = 5 * 60_000;

export interface TuneArguments {
  readonly help: boolean;
  readonly files: readonly string[];
  readonly budget: number;
  readonly constraint: TuneConstraint;
  readonly maxConfigs: number;
  readonly timeLimitMs: number;
  readonly price: PriceModel;
  readonly format?: string;
  /** A file, or "-" for stdout instead of the text. */
  readonly json?: string;
  readonly debug: boolean;
}

const OPTIONS = {
  budget: { type: "string" },
  "min-retention": { type: "string" },
  "max-cost": { type: "string" },
  "max-configs": { type: "string" },
  "time-limit": { type: "string" },
  price: { type: "string" },
  format: { type: "string" },
  json: { type: "string" },
  debug: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const parseBudget = (text: string) => parseTokenCount(text, "give one whole number, e.g. --budget 24000 or --budget 24k");

/** A share: 0.95, or 95%. */
function parseRetention(text: string): number {
  const percent = text.trim().endsWith("%");
  const value = Number(percent ? text.trim().slice(0, -1) : text);
  const share = percent ? value / 100 : value;
  if (text.trim() === "" || !Number.isFinite(share) || share < 0 || share > 1)
    throw new UsageError(
      "--min-retention",
      `"${text}" is not a share: give a number from 0 to 1 (or a percentage), e.g. --min-retention 0.95`,
    );
  return share;
}

function parseCost(text: string): number {
  const value = Number(text.trim().replace(/x$/i, ""));
  if (text.trim() === "" || !Number.isFinite(value) || value <= 0)
    throw new UsageError("--max-cost", `"${text}" is not a cost: give the share of the full history's bill, above 0, e.g. --max-cost 0.4`);
  return value;
}

function parseMaxConfigs(text: string): number {
  const value = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1)
    throw new UsageError(
      "--max-configs",
      `"${text}" is not a count: give a whole number of configurations of 1 or more, e.g. --max-configs 20`,
    );
  return value;
}

/** Seconds, or with a unit: 90, 90s, 2m, 500ms. */
function parseTimeLimit(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  const unit = match?.[2] ?? "s";
  const milliseconds = match === null ? Number.NaN : Number(match[1]) * (unit === "ms" ? 1 : unit === "s" ? 1000 : 60_000);
  if (!Number.isFinite(milliseconds) || milliseconds <= 0 || milliseconds > 2 ** 31 - 1)
    throw new UsageError(
      "--time-limit",
      `"${text}" is not a duration: give seconds or a unit, above 0, e.g. --time-limit 90s or --time-limit 2m`,
    );
  return Math.round(milliseconds);
}

/** The arguments after `tune`. */
export function parseTuneArguments(argv: readonly string[]): TuneArguments {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const debug = values.debug === true;
  const defaults = { constraint: { kind: "balance" } as const, maxConfigs: DEFAULT_MAX_CONFIGS, timeLimitMs: DEFAULT_TIME_LIMIT_MS };
  if (values.help === true) return { help: true, files: [], budget: 0, ...defaults, price: PRICING_BY_NAME.anthropic, debug };
  if (positionals.length === 0) throw new UsageError("", "name at least one session file, e.g. ctxkit tune session.jsonl --budget 24000");
  if (values.budget === undefined) throw new UsageError("--budget", "give the token budget to tune for, e.g. --budget 24000");
  const budget = parseBudget(values.budget);
  if (values["min-retention"] !== undefined && values["max-cost"] !== undefined)
    throw new UsageError("--max-cost", "give --min-retention or --max-cost, not both: one is the constraint, the other the objective");
  const constraint: TuneConstraint =
    values["min-retention"] !== undefined
      ? { kind: "min-retention", value: parseRetention(values["min-retention"]) }
      : values["max-cost"] !== undefined
        ? { kind: "max-cost", value: parseCost(values["max-cost"]) }
        : defaults.constraint;
  const price = values.price ?? "anthropic";
  if (!Object.hasOwn(PRICING_BY_NAME, price))
    throw new UsageError("--price", `"${price}" is not a price model: give anthropic, openai or none`);
  const format = checkFormat(values.format);
  if (values.json === "") throw new UsageError("--json", "give a file to write, or - for stdout");
  return {
    help: false,
    files: positionals,
    budget,
    constraint,
    maxConfigs: values["max-configs"] === undefined ? DEFAULT_MAX_CONFIGS : parseMaxConfigs(values["max-configs"]),
    timeLimitMs: values["time-limit"] === undefined ? DEFAULT_TIME_LIMIT_MS : parseTimeLimit(values["time-limit"]),
    price: PRICING_BY_NAME[price as keyof typeof PRICING_BY_NAME],
    ...(format === undefined ? {} : { format }),
    ...(values.json === undefined ? {} : { json: values.json }),
    debug,
  };
}
