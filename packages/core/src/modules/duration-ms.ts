// The one schema of a duration option in milliseconds: only what a timer can honour.
import * as z from "zod/mini";

/**
 * The longest delay a timer honours: Node and browsers keep a timer's delay in a signed 32-bit integer
 * and run a longer one after 1 ms instead, so a 2^31 ms timeout would fire at once.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/**
 * A duration in milliseconds: a whole number from 1 to 2^31−1 (about 24.8 days). Add a check for a
 * tighter bound (`durationMsSchema.check(z.lte(…))`, or `.max()` on `z.number()` in zod's classic API) and wrap it
 * for the option's default (`z._default(durationMsSchema, …)`); a bad value is one issue naming the limit.
 */
export const durationMsSchema = z
  .number("must be a number of milliseconds")
  .check(
    z.int("must be a whole number of milliseconds"),
    z.gte(1, "must be at least 1 ms"),
    z.lte(MAX_DURATION_MS, `must be at most ${MAX_DURATION_MS} ms (2^31−1, the longest delay a timer can honour)`),
  );

/** Why `value` cannot be a timer's delay, or undefined when it can: for a duration given in code rather than in a config. */
export function durationMsProblem(value: unknown): string | undefined {
  const result = durationMsSchema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
