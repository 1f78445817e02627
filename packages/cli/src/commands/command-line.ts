// What every command's command line shares: strict parsing, token counts and the session format.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { FORMAT_NAMES } from "../formats/detect-format.js";
import { UsageError } from "./usage-error.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/** What `parseCommandLine` reads: each option's value, and the positional arguments. */
export type CommandLine<T extends Options> = ReturnType<typeof parseArgs<{ options: T; allowPositionals: true; strict: true }>>;

/** `argv` read strictly against `options`; an unknown option or a missing value is a `UsageError`. */
export function parseCommandLine<T extends Options>(argv: readonly string[], options: T): CommandLine<T> {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true as const, strict: true as const });
  } catch (error) {
    // parseArgs names the option in its own words ("Unknown option '--colour'").
    throw new UsageError("", `${(error as Error).message.replace(/\. To specify a positional argument.*$/s, "")}`);
  }
}

/** A token count: digits, with an optional k (24k = 24000); `example` ends the message of a bad one. */
export function parseTokenCount(text: string, example: string): number {
  const match = /^(\d+)(k?)$/i.exec(text.trim().replaceAll("_", ""));
  const budget = match === null ? Number.NaN : Number(match[1]) * (match[2] === "" ? 1 : 1000);
  if (!Number.isSafeInteger(budget) || budget <= 0) throw new UsageError("--budget", `"${text}" is not a token count: ${example}`);
  return budget;
}

/** `--format`, when given, as one of the formats the readers know. */
export function checkFormat(format: string | undefined): string | undefined {
  if (format !== undefined && !FORMAT_NAMES.includes(format))
    throw new UsageError("--format", `"${format}" is not a format: give one of ${FORMAT_NAMES.join(", ")}`);
  return format;
}
