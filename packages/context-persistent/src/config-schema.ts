// The persistent manager's configuration: the engine's keys, plus where and how the session is stored.
import { contextConfigSchema } from "@ctxkit/core/kit";
import { z } from "zod";
import { extend } from "zod/mini";

/** Letters, digits, `.`, `_` and `-`, starting with a letter or digit: a file name on every system, never a path. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

// Core's schemas are built with zod's functional API (`zod/mini`), so they are extended with its `extend`.
export const configSchema = extend(contextConfigSchema, {
  /** The folder that holds one `<sessionId>.jsonl` journal per session; created when missing. */
  storagePath: z
    .string({
      error: (issue) =>
        issue.input === undefined ? "required: the folder that holds the sessions' journals" : "must be a folder path (a string)",
    })
    .min(1, "must name a folder")
    .refine((path) => !path.includes("\0"), "must not contain a NUL byte"),
  /** Which session to open; a new random id when absent, which always starts a fresh session. */
  sessionId: z
    .string()
    .regex(SESSION_ID, "must be 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit (it becomes a file name)")
    .optional(),
  durability: z.enum(["always", "batch", "none"]).default("batch"),
  /** One writer per session, through a lock file. Turn off only when you guarantee a single writer yourself. */
  lock: z.boolean().default(true),
});

/** What a caller may pass: `storagePath` is required, every other key optional. */
export type PersistentContextConfig = z.input<typeof configSchema>;
/** The config with defaults applied. */
export type ResolvedPersistentContextConfig = z.output<typeof configSchema>;

export const MODULE_NAME = "@ctxkit/context-persistent";
