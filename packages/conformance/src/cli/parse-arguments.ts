// Parses `ctxkit-conformance <module…> [options]` into settings, or a usage error to print.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CAPABILITY_NAMES, type CapabilityFlags, type CapabilityName } from "../subject/capabilities.js";

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
  /** Sessions outlive their instance (enables restart); absent: what the module declares. */
  readonly restart?: boolean;
  /** The module's summary strategy uses the kit's summarizer (enables summary-coverage). */
  readonly summarizer?: boolean;
  /** Instances on one session id share its store at the same time (enables shared-state). */
  readonly sharedStore?: boolean;
  readonly capabilities?: CapabilityFlags;
  readonly concurrentAdds?: number;
  readonly timeoutMs?: number;
  readonly regime?: "any" | "above-minimal";
}

export const USAGE = `Usage: ctxkit-conformance <module…> [options]

Loads each context module (a path, a folder or a package name), mounts it on a fresh coordinator,
runs the ctxkit conformance checks and prints a report, then exits by itself.

Exit codes: 0 every check passed; 1 a check failed, a property never exercised what it checks, a step
did not finish within --timeout (the run is incomplete), or the module kept the process alive after
its report (a handle left open); 2 a usage error.

Options:
  --runs <n>       runs per property (default 100)
  --seed <n>       seed for every property (default: random, always printed;
                   a negative one as --seed=-5)
  --only <names>   comma-separated checks to run, e.g. pairing,budget
  --path <path>    replay one counterexample (with --seed and --only <property>)
  --regime <name>  budgets to run with: any (default) or above-minimal (every budget above the
                   minimal view, as a replay line says when its failure was found so)
  --config <json>  config to mount the module with (default {}); strategy entries may
                   name a strategy module: {"module": "<path or package>", "config": {}}
  --restart        sessions outlive their instance: each instance is mounted with the kit's
                   sessionId added to --config, and the restart property runs
  --summarizer     the module's summary strategy uses the kit's summarizer (declare it in the
                   module's \`conformance\` export, whose config can be a function of the settings)
  --shared-store   instances on one session id share its store at once (shared-state runs)
  --capabilities <list>  comma-separated: a name requires it, -name skips it
                   (compact, recoverOverflow, usage, events)
  --concurrent-adds <n>  addMessage calls the concurrency property fires at once (default 50)
  --timeout <ms>   longest any one step may take: importing the module, a mount, one run of a
                   property (default 30000). A step that takes longer fails, naming the call that
                   never returned; the checks after it are not run, and the exit code is 1
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
  restart: { type: "boolean" },
  summarizer: { type: "boolean" },
  "shared-store": { type: "boolean" },
  capabilities: { type: "string" },
  "concurrent-adds": { type: "string" },
  timeout: { type: "string" },
  regime: { type: "string" },
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

function parseRegime(text: string): "any" | "above-minimal" {
  if (text === "any" || text === "above-minimal") return text;
  throw new UsageError(`--regime is any or above-minimal, got ${text}`);
}

function parseCapabilities(text: string): CapabilityFlags {
  const flags: Partial<Record<CapabilityName, boolean>> = {};
  for (const item of text.split(",").filter((entry) => entry !== "")) {
    const name = item.replace(/^-/, "") as CapabilityName;
    if (!CAPABILITY_NAMES.includes(name))
      throw new UsageError(`--capabilities names ${CAPABILITY_NAMES.join(", ")} (with - to skip one), got ${item}`);
    flags[name] = !item.startsWith("-");
  }
  return flags;
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
    ...(values.restart === undefined ? {} : { restart: values.restart }),
    ...(values.summarizer === undefined ? {} : { summarizer: values.summarizer }),
    ...(values["shared-store"] === undefined ? {} : { sharedStore: values["shared-store"] }),
    ...(values.capabilities === undefined ? {} : { capabilities: parseCapabilities(values.capabilities) }),
    ...(values["concurrent-adds"] === undefined ? {} : { concurrentAdds: parseInteger("--concurrent-adds", values["concurrent-adds"], 1) }),
    ...(values.timeout === undefined ? {} : { timeoutMs: parseInteger("--timeout", values.timeout, 1) }),
    ...(values.regime === undefined ? {} : { regime: parseRegime(values.regime) }),
  };
  if (modules.length === 0 && !settings.help) throw new UsageError("name at least one module: a path, a folder or a package name");
  if (settings.path !== undefined && settings.only?.length !== 1)
    throw new UsageError("--path replays one property: pass --only <property> too");
  return settings;
}
