// Parses `ctxkit-conformance <module…> [options]` into settings, or a usage error to print.
import { parseArgs, type ParseArgsConfig } from "node:util";

export interface CliSettings {
  readonly modules: readonly string[];
  readonly json: boolean;
  readonly color: boolean;
  readonly help: boolean;
  readonly runs?: number;
  readonly seed?: number;
  readonly path?: string;
  readonly only?: readonly string[];
  readonly config?: unknown;
}

export const USAGE = `Usage: ctxkit-conformance <module…> [options]

Loads each context module (a path, a folder or a package name), mounts it on a fresh coordinator,
runs the ctxkit conformance checks and prints a report. Exits 1 if any check fails, 2 on a usage error.

Options:
  --runs <n>       runs per property (default 100)
  --seed <n>       seed for every property (default: random, always printed;
                   a negative one as --seed=-5)
  --only <names>   comma-separated checks to run, e.g. pairing,budget
  --path <path>    replay one counterexample (with --seed and --only <property>)
  --config <json>  config to mount the module with (default {}); strategy entries may
                   name a strategy module: {"module": "<path or package>", "config": {}}
  --json           print the report as JSON on stdout
  --no-color       plain text even on a terminal
  -h, --help       show this help`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

function parseInteger(flag: string, value: string | undefined, minimum: number): number {
  const parsed = Number(value);
  if (value === undefined || !Number.isInteger(parsed) || parsed < minimum) {
    throw new UsageError(`${flag} needs an integer of at least ${minimum}, got ${value ?? "nothing"}`);
  }
  return parsed;
}

const OPTIONS = {
  runs: { type: "string" },
  seed: { type: "string" },
  only: { type: "string" },
  path: { type: "string" },
  config: { type: "string" },
  json: { type: "boolean" },
  // Node 20's parseArgs has no negated booleans, so --no-color is an option of its own.
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

/** parseArgs's own errors, in this command's words. */
function toUsageError(error: unknown): UsageError {
  const { code, message } = error as { code?: string; message?: string };
  const option = /'(-[^' ]+)/.exec(message ?? "")?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return new UsageError(`unknown option ${option ?? ""}`.trim());
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && /argument missing/.test(message ?? ""))
    return new UsageError(`${option ?? "an option"} needs a value`);
  return new UsageError((message ?? String(error)).replace(/\.$/, ""));
}

function parseConfigJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`--config needs JSON, got ${text}`);
  }
}

export function parseArguments(argv: readonly string[]): CliSettings {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw toUsageError(error);
  }
  const { values, positionals: modules } = parsed;
  const settings: CliSettings = {
    modules,
    json: values.json === true,
    color: values["no-color"] !== true,
    help: values.help === true,
    ...(values.runs === undefined ? {} : { runs: parseInteger("--runs", values.runs, 1) }),
    ...(values.seed === undefined ? {} : { seed: parseInteger("--seed", values.seed, -(2 ** 31)) }),
    ...(values.path === undefined ? {} : { path: values.path }),
    ...(values.only === undefined ? {} : { only: values.only.split(",").filter((name) => name !== "") }),
    ...(values.config === undefined ? {} : { config: parseConfigJson(values.config) }),
  };
  if (modules.length === 0 && !settings.help) throw new UsageError("name at least one module: a path, a folder or a package name");
  if (settings.path !== undefined && settings.only?.length !== 1)
    throw new UsageError("--path replays one property: pass --only <property> too");
  return settings;
}
