// The module's configuration: the engine's keys, plus which server, which session and which tables.
import { contextConfigSchema, durationMsSchema } from "@ctxkit/core/kit";
import { z } from "zod";
import { extend } from "zod/mini";
import { DEFAULT_CLOSE_TIMEOUT_MS, DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_STATEMENT_TIMEOUT_MS } from "./bounded-pool.js";
import { sessionIdProblem } from "./session-id.js";

/** A plain SQL identifier: letters, digits and `_`, starting with a letter or `_`, at most 48 characters (a table suffix is added). */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;
const identifier = (what: string) =>
  z
    .string()
    .regex(
      IDENTIFIER,
      `must be a plain SQL identifier for the ${what}: letters, digits and _, starting with a letter or _, at most 48 characters`,
    );

// Core's schemas are built with zod's functional API (`zod/mini`): checks are added with `.check`, and the
// engine's keys extended with its `extend`.
const milliseconds = durationMsSchema.check(z.lte(3_600_000, "must be at most 3600000 ms (an hour)"));

export const configSchema = extend(contextConfigSchema, {
  /** `postgres://user:password@host:port/database`, as node-postgres takes it. */
  connectionString: z
    .string({ error: (issue) => (issue.input === undefined ? "required: the server's postgres:// URL" : "must be a postgres:// URL") })
    .min(1, "must be a postgres:// URL"),
  /** The session every worker that passes the same id shares; a new random id (a new session) when absent. */
  sessionId: z
    .string()
    .min(1, "must not be empty")
    .max(256, "must be at most 256 characters")
    .superRefine((sessionId, context) => {
      const problem = sessionIdProblem(sessionId);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    })
    .optional(),
  /** The prefix of the four tables (`<table>_sessions`, `<table>_messages`, `<table>_state`, `<table>_flushes`) and of the append procedure (`<table>_append`). */
  table: identifier("tables' prefix").default("ctxkit"),
  schema: identifier("schema").default("public"),
  /** Connections in this manager's pool. */
  maxConnections: z.number().int().positive().max(100).default(4),
  /** How long connecting may take, the server's startup answer included. */
  connectTimeoutMs: z._default(milliseconds, DEFAULT_CONNECT_TIMEOUT_MS),
  /** How long one statement may run: the server cancels it, and the client gives up a second later. */
  statementTimeoutMs: z._default(milliseconds, DEFAULT_STATEMENT_TIMEOUT_MS),
  /** How long `close()` waits for pending writes and for the connections to end before cutting them. */
  closeTimeoutMs: z._default(milliseconds, DEFAULT_CLOSE_TIMEOUT_MS),
});

export type PostgresContextConfig = z.input<typeof configSchema>;
export type ResolvedPostgresContextConfig = z.output<typeof configSchema>;

export const MODULE_NAME = "@ctxkit/context-postgres";
