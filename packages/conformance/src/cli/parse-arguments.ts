// Parses `ctxkit-conformance <module…> [options]` into settings, or a usage error to print.

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
  --seed <n>       seed for every property (default: random, always printed)
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

export function parseArguments(argv: readonly string[]): CliSettings {
  const modules: string[] = [];
  let settings: Omit<CliSettings, "modules"> = { json: false, color: true, help: false };
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    const [flag, inline] = argument.startsWith("--") && argument.includes("=") ? [argument.slice(0, argument.indexOf("=")), argument.slice(argument.indexOf("=") + 1)] : [argument, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      index += 1;
      return argv[index];
    };
    if (flag === "-h" || flag === "--help") settings = { ...settings, help: true };
    else if (flag === "--json") settings = { ...settings, json: true };
    else if (flag === "--no-color") settings = { ...settings, color: false };
    else if (flag === "--runs") settings = { ...settings, runs: parseInteger("--runs", value(), 1) };
    else if (flag === "--seed") settings = { ...settings, seed: parseInteger("--seed", value(), -(2 ** 31)) };
    else if (flag === "--path") settings = { ...settings, path: value() ?? "" };
    else if (flag === "--only") settings = { ...settings, only: (value() ?? "").split(",").filter((name) => name !== "") };
    else if (flag === "--config") {
      const text = value();
      try {
        settings = { ...settings, config: JSON.parse(text ?? "") as unknown };
      } catch {
        throw new UsageError(`--config needs JSON, got ${text ?? "nothing"}`);
      }
    } else if (flag.startsWith("-")) throw new UsageError(`unknown option ${flag}`);
    else modules.push(argument);
  }
  if (modules.length === 0 && !settings.help) throw new UsageError("name at least one module: a path, a folder or a package name");
  if (settings.path !== undefined && settings.only?.length !== 1) throw new UsageError("--path replays one property: pass --only <property> too");
  return { modules, ...settings };
}
