// The module's configuration: the engine's keys, plus which server (a URL or a client), which session and which keys.
import { contextConfigSchema, durationMsSchema } from "@ctxkit/core/kit";
import type { Cluster, Redis } from "ioredis";
import { z } from "zod";
import { extend } from "zod/mini";

/** A client the caller made and owns (a cluster, Valkey, a managed service with its own TLS or auth). */
export type RedisClient = Redis | Cluster;

const isRedisClient = (value: unknown): value is RedisClient =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Redis).evalsha === "function" &&
  typeof (value as Redis).rpush === "function";

/**
 * Text every Redis key can hold apart from every other: UTF-8 turns every lone surrogate into the same
 * replacement bytes, so two ids differing only there would share a session; NUL and braces are refused
 * because the module wraps the session id in braces, the Redis Cluster hash tag that keeps a session's
 * keys on one node.
 */
function keySafe(text: string): string | undefined {
  if (text.includes("\u0000")) return "must not contain NUL";
  if (/\p{Cs}/u.test(text)) return "must not contain a lone surrogate (UTF-8 cannot keep such ids apart)";
  if (/[{}]/.test(text)) return "must not contain { or } (the session id is wrapped in braces as the Redis Cluster hash tag)";
  return undefined;
}

const keyText = (schema: z.ZodString) =>
  schema.superRefine((text, context) => {
    const problem = keySafe(text);
    if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
  });

// Core's schemas are built with zod's functional API (`zod/mini`): the engine's keys are extended with its
// `extend`, and checks added with `.check`.
export const configSchema = extend(contextConfigSchema, {
  /** `redis://[[user]:password@]host:port[/db]` or `rediss://…` for TLS, as ioredis takes it. Give this or `client`. */
  url: z
    .string()
    .min(1, "must be a redis:// or rediss:// URL")
    .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
    .optional(),
  /** An ioredis `Redis` or `Cluster` the caller made and closes; the manager does not close it. Give this or `url`. */
  client: z.custom<RedisClient>(isRedisClient, { message: "expected an ioredis Redis or Cluster client" }).optional(),
  /** The session every worker that passes the same id shares; a new random id (a new session) when absent. */
  sessionId: keyText(z.string().min(1, "must not be empty").max(256, "must be at most 256 characters")).optional(),
  /** What every key of the module starts with: `<keyPrefix>{<sessionId>}:messages`, `:meta`, `:state`. */
  keyPrefix: keyText(z.string().max(128, "must be at most 128 characters")).default("ctxkit:"),
  /** How long opening a connection may take before the open fails with `ContextStoreUnavailableError`. */
  connectTimeoutMs: z._default(durationMsSchema.check(z.lte(600_000, "must be at most 600000 ms (10 minutes)")), 10_000),
  /** How long one command may go unanswered (a frozen or dropped connection) before it fails with `ContextStoreUnavailableError`. */
  commandTimeoutMs: z._default(durationMsSchema.check(z.lte(600_000, "must be at most 600000 ms (10 minutes)")), 5_000),
}).check(
  z.superRefine((config, context) => {
    if ((config.url === undefined) === (config.client === undefined)) {
      context.addIssue({
        code: "custom",
        path: ["url"],
        message: "give either url (a redis:// URL) or client (an ioredis client), exactly one",
      });
    }
  }),
);

export type RedisContextConfig = z.input<typeof configSchema>;
export type ResolvedRedisContextConfig = z.output<typeof configSchema>;

export const MODULE_NAME = "@ctxkit/context-redis";
