// A module that cannot mount without config the CLI was not given: name the keys and show a command that works.

export interface MissingConfig {
  /** Each required key absent from the config, with what the module's schema says about it. */
  readonly keys: readonly { readonly name: string; readonly message: string }[];
  /** The config with a placeholder for each missing key, as JSON. */
  readonly example: string;
}

interface SchemaIssue {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly expected?: string;
}

interface SafeParseSchema {
  safeParse(input: unknown): { success: true } | { success: false; error: { issues: readonly SchemaIssue[] } };
}

function isSafeParseSchema(value: unknown): value is SafeParseSchema {
  return typeof value === "object" && value !== null && typeof (value as SafeParseSchema).safeParse === "function";
}

/** A value to show for a missing key: a folder for folder-like names, else a placeholder of the right type. */
function exampleValue(name: string, expected: string | undefined): unknown {
  if (expected === "number") return 1;
  if (expected === "boolean") return true;
  if (/path|dir|folder/i.test(name)) return "./ctxkit-conformance-data";
  return `<${name}>`;
}

/** The top-level keys `configSchema` requires and `config` lacks, or nothing when none is missing. */
export function findMissingConfig(configSchema: unknown, config: unknown): MissingConfig | undefined {
  if (!isSafeParseSchema(configSchema)) return undefined;
  const given = typeof config === "object" && config !== null ? (config as Record<string, unknown>) : {};
  const result = configSchema.safeParse(given);
  if (result.success) return undefined;
  const missing = result.error.issues.filter(
    (issue) => issue.code === "invalid_type" && issue.path.length === 1 && given[String(issue.path[0])] === undefined,
  );
  if (missing.length === 0) return undefined;
  const example = {
    ...given,
    ...Object.fromEntries(missing.map((issue) => [String(issue.path[0]), exampleValue(String(issue.path[0]), issue.expected)])),
  };
  return { keys: missing.map((issue) => ({ name: String(issue.path[0]), message: issue.message })), example: JSON.stringify(example) };
}

/** A POSIX shell word: single quotes, with each inner quote closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return /^[\w./:@,=+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

export function formatMissingConfig(moduleName: string, argument: string, missing: MissingConfig): string {
  const keys = missing.keys.map((key) => `${key.name} (${key.message})`).join(", ");
  return (
    `${moduleName} cannot mount without config: ${keys}. Pass it with --config, for example:\n` +
    `  ctxkit-conformance ${shellQuote(argument)} --config ${shellQuote(missing.example)}`
  );
}
