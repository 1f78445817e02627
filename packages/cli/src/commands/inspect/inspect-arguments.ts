// `ctxkit inspect`'s command line, read with node:util's parseArgs.
import { checkFormat, parseCommandLine, parseTokenCount } from "../command-line.js";
import type { ConfigurationName } from "../replay/configurations.js";
import { UsageError } from "../usage-error.js";

export interface InspectArguments {
  readonly help: boolean;
  /** A transcript or a journal; absent for a PostgreSQL or Redis session. */
  readonly source?: string;
  readonly url?: string;
  readonly session?: string;
  readonly configuration: ConfigurationName;
  readonly budget?: number;
  readonly format?: string;
  readonly html?: string;
  /** A file, or "-" for stdout: the page's data as JSON. */
  readonly json?: string;
  readonly debug: boolean;
}

const OPTIONS = {
  preset: { type: "string" },
  config: { type: "string" },
  budget: { type: "string" },
  url: { type: "string" },
  session: { type: "string" },
  format: { type: "string" },
  html: { type: "string" },
  json: { type: "string" },
  debug: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const parseBudget = (text: string) => parseTokenCount(text, "give one, e.g. --budget 24000");

/** The arguments after `inspect`; a `UsageError` naming the option when they cannot run. */
export function parseInspectArguments(argv: readonly string[]): InspectArguments {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const debug = values.debug === true;
  const configuration: ConfigurationName =
    values.config !== undefined ? { name: values.config, option: "--config" } : { name: values.preset ?? "default", option: "--preset" };
  if (values.help === true) return { help: true, configuration, debug };
  if (values.preset !== undefined && values.config !== undefined)
    throw new UsageError("--config", "give --preset or --config, not both: inspect shows one configuration");
  if (positionals.length > 1) throw new UsageError("", `name one session, not ${positionals.length}: e.g. ctxkit inspect session.jsonl`);
  const [source] = positionals;
  if (values.url !== undefined && source !== undefined) throw new UsageError("--url", "give a file or --url with --session, not both");
  if (values.url === undefined && source === undefined)
    throw new UsageError("", "name a session: a transcript or journal file, or --url and --session for PostgreSQL or Redis");
  if (values.url !== undefined) {
    if (!/^(postgres|postgresql|redis|rediss):\/\//.test(values.url))
      throw new UsageError("--url", "give a postgres://, postgresql://, redis:// or rediss:// URL");
    if (values.session === undefined || values.session === "")
      throw new UsageError("--session", "give the session id to inspect, e.g. --session 7f3c…");
  } else if (values.session !== undefined) throw new UsageError("--session", "--session goes with --url (a PostgreSQL or Redis session)");
  const format = checkFormat(values.format);
  if (values.html === "" || values.html === "-") throw new UsageError("--html", "give a file to write, e.g. --html inspect.html");
  if (values.json === "") throw new UsageError("--json", "give a file to write, or - for stdout");
  return {
    help: false,
    ...(source === undefined ? {} : { source }),
    ...(values.url === undefined ? {} : { url: values.url }),
    ...(values.session === undefined ? {} : { session: values.session }),
    configuration,
    ...(values.budget === undefined ? {} : { budget: parseBudget(values.budget) }),
    ...(format === undefined ? {} : { format }),
    ...(values.html === undefined ? {} : { html: values.html }),
    ...(values.json === undefined ? {} : { json: values.json }),
    debug,
  };
}
