// Turns what node-postgres or the network threw into the ctxkit error a caller can act on.
import { ContextError } from "@ctxkit/core";
import { redactCredentials, redactText } from "@ctxkit/core/kit";
import { ContextStoreUnavailableError, PostgresStoreAccessError, PostgresStoreCorruptError } from "./errors.js";

/** What a failure is reported against: the session, the server and the bounds that may have run out. */
export interface FailureSubject {
  readonly location: string;
  /** `host:port/database`, never the password. */
  readonly server: string;
  readonly connectTimeoutMs: number;
  readonly statementTimeoutMs: number;
  /** The connection's password (postgres-credentials.ts): removed from every driver error reported. */
  readonly secrets?: readonly string[];
}

/** `host:port/database` of a `postgres://` URL, without its user or password; the whole string's scheme when it is not a URL. */
export function describeServer(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = url.hostname || url.searchParams.get("host") || "localhost";
    return `${host}:${url.port || "5432"}${url.pathname || "/"}`;
  } catch {
    return "the configured server";
  }
}

/** A ctxkit error for `error`; a ctxkit error (a conflict, a corrupt row, a closed session) is kept as it is. */
export function toStoreError(error: unknown, subject: FailureSubject): ContextError {
  if (error instanceof ContextError) return error;
  const { location, server } = subject;
  const code = typeof (error as { code?: unknown } | undefined)?.code === "string" ? (error as { code: string }).code : undefined;
  // What the driver threw, kept as the cause only as a copy without the connection's password.
  const secrets = subject.secrets ?? [];
  const cause = redactCredentials(error, secrets);
  const message = error instanceof Error ? redactText(error.message, secrets) : cause.message;
  const unavailable = (detail: string) => new ContextStoreUnavailableError(location, { cause, detail });
  const refused = (reason: "role" | "database" | "privilege", advice: string) =>
    new PostgresStoreAccessError(location, server, reason, `${message} (SQLSTATE ${code}). ${advice}`, { cause });
  switch (code) {
    // A table or a column the store made is gone or changed type: the tables were edited outside ctxkit.
    case "42P01":
    case "42703":
    case "42804":
      return new PostgresStoreCorruptError(
        location,
        { entry: "table" },
        `${message} (SQLSTATE ${code}): the tables were changed outside ctxkit. Restore them, or drop them to let the store create them again`,
        { cause },
      );
    case "28000":
    case "28P01":
      return refused("role", "Fix the user and password in connectionString, or create that role on the server.");
    case "3D000":
      return refused("database", "Create that database on the server, or fix the database name in connectionString.");
    case "42501":
      return refused(
        "privilege",
        "Grant the role CREATE on the schema and SELECT, INSERT, UPDATE, DELETE on its tables, or use a role that has them.",
      );
    case "53300":
      return unavailable(
        `PostgreSQL at ${server} turned the connection away: ${message}. Lower maxConnections across the workers, or raise the server's limit, then open the session again`,
      );
    case "57P01":
    case "57P02":
    case "57P03":
      return unavailable(`PostgreSQL at ${server} is not accepting connections now (${message}); open the session again once it is up`);
    case "57014":
      return unavailable(
        `PostgreSQL at ${server} cancelled a statement (${message}), as it does past statementTimeoutMs (${subject.statementTimeoutMs} ms). ` +
          `Check what holds the session's rows or slows the server, then open the session again`,
      );
    case "ECONNREFUSED":
      return unavailable(
        `nothing accepts connections at ${server} (${code}). Start PostgreSQL there, or fix the host and port in connectionString`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return unavailable(`the host of ${server} cannot be resolved (${code}). Fix the host in connectionString`);
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ECONNRESET":
    case "EPIPE":
      return unavailable(`the network to PostgreSQL at ${server} failed (${code}). Check it, then open the session again`);
  }
  if (/timeout expired|timeout exceeded|connection timeout/i.test(message)) {
    return unavailable(
      `PostgreSQL at ${server} did not complete a connection within connectTimeoutMs (${subject.connectTimeoutMs} ms). ` +
        `Check that the server is up and answering, then open the session again`,
    );
  }
  if (/query read timeout/i.test(message)) {
    return unavailable(
      `PostgreSQL at ${server} did not answer within statementTimeoutMs (${subject.statementTimeoutMs} ms), so the connection was given up. ` +
        `Check the network to the server, then open the session again`,
    );
  }
  return unavailable(`${message} (PostgreSQL at ${server}). Check that the server is reachable, then open the session again`);
}
