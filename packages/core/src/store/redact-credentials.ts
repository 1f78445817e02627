// Keeps a server's credentials out of what a store reports: a driver's error is copied, secrets removed, before it becomes a cause.

/** What stands in a message where a secret was. */
export const REDACTED = "[redacted]";

/** Where a connection's secrets come from: a URL (its password, as written and decoded), a user and a password given apart. */
export interface CredentialSource {
  readonly url?: string | null | undefined;
  readonly username?: string | null | undefined;
  readonly password?: string | null | undefined;
}

/**
 * The secrets of one connection, longest first (so `user:password` goes whole before `password`):
 * the URL's password as written and percent-decoded, `user:password`, a `password=` parameter of the
 * URL's query, and a password given apart. A user name alone is not a secret.
 */
export function credentialsOf(source: CredentialSource): string[] {
  const secrets = new Set<string>();
  const add = (secret: string | undefined) => {
    if (typeof secret === "string" && secret.length > 0) secrets.add(secret);
  };
  const addPassword = (user: string, password: string) => {
    add(password);
    if (password.length > 0 && user.length > 0) add(`${user}:${password}`);
  };
  // Drivers' options hold null where nothing was given; anything but text is no secret of ours.
  if (typeof source.url === "string") {
    const userinfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(source.url)?.[1];
    if (userinfo?.includes(":")) {
      const separator = userinfo.indexOf(":");
      const user = userinfo.slice(0, separator);
      const password = userinfo.slice(separator + 1);
      addPassword(user, password);
      addPassword(decoded(user), decoded(password));
    }
    for (const match of source.url.matchAll(/[?&]password=([^&#]*)/gi)) {
      add(match[1]);
      add(decoded(match[1]!));
    }
  }
  if (typeof source.password === "string") addPassword(typeof source.username === "string" ? source.username : "", source.password);
  return [...secrets].sort((first, second) => second.length - first.length);
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * `text` with every one of `secrets` replaced, and, whatever the secrets, the password of any URL in it
 * and any `password=` value (a connection string a driver quoted back).
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) redacted = redacted.split(secret).join(REDACTED);
  return redacted
    .replace(/([a-z][a-z0-9+.-]*:\/\/[^\s/@:]*:)[^\s/@]+@/gi, `$1${REDACTED}@`)
    .replace(/(password\s*=\s*)(?!\[redacted\])[^\s&;,'"]+/gi, `$1${REDACTED}`);
}

/** How deep a cause chain is copied; deeper links are summarized, so a cycle cannot loop. */
const MAX_DEPTH = 8;

/**
 * A copy of a driver's `error` that is safe to keep as a cause, print or log: the same name, message,
 * stack and `code`, with every secret removed (see `redactText`), its `cause` (and an AggregateError's
 * `errors`) copied the same way. Other fields are kept only when they are text, numbers or booleans
 * (`errno`, `address`, `severity`, `detail`...), text redacted; anything else a driver hangs on its
 * error (the command with its arguments, such as `AUTH user password`, the connection's options) is left
 * out, because printing the error would print it.
 */
export function redactCredentials(error: unknown, secrets: readonly string[]): Error {
  return copyError(error, secrets, 0);
}

function copyError(error: unknown, secrets: readonly string[], depth: number): Error {
  if (!(error instanceof Error)) return new Error(redactText(describe(error), secrets));
  const hasCause = "cause" in error && error.cause !== undefined && depth < MAX_DEPTH;
  const copy = new Error(redactText(error.message, secrets), hasCause ? { cause: copyError(error.cause, secrets, depth + 1) } : undefined);
  copy.name = error.name;
  if (error.stack !== undefined) copy.stack = redactText(error.stack, secrets);
  const fields = copy as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(error)) {
    if (key === "cause" || key === "errors" || key === "stack" || key === "message" || key === "name") continue;
    if (typeof value === "string") fields[key] = redactText(value, secrets);
    else if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") fields[key] = value;
  }
  if (error instanceof AggregateError && depth < MAX_DEPTH)
    fields["errors"] = error.errors.map((each: unknown) => copyError(each, secrets, depth + 1));
  return copy;
}

function describe(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
