// The one place that knows how a summary message says what it stands for; core and the summary strategy both read it here.
import type { Message } from "./message.js";

/** The `source` (and view entry origin) of a summary checkpoint: `metadata.ctxkit.source` and `{ kind: "synthetic", origin }`. */
export const SUMMARY_SOURCE = "summary";

/**
 * Whether a view entry is a summary checkpoint that ctxkit put there (by its source, never by a message's metadata).
 * Typed by the one field it reads: messages sit below the pipeline, so they do not import its `ViewEntry`.
 */
export function isSummaryEntry(entry: { readonly source: { readonly kind: string; readonly origin?: string } }): boolean {
  return entry.source.kind === "synthetic" && entry.source.origin === SUMMARY_SOURCE;
}

/**
 * The last history index a summary message covers, from `metadata.ctxkit.summary.coveredThrough`, or
 * `undefined`. Read it only from an entry `isSummaryEntry` accepts: a history message's metadata is the caller's.
 */
export function readSummaryCoverage(message: Message): number | undefined {
  const summary = message.metadata?.ctxkit?.[SUMMARY_SOURCE] as { coveredThrough?: unknown } | undefined;
  return typeof summary?.coveredThrough === "number" && Number.isInteger(summary.coveredThrough) ? summary.coveredThrough : undefined;
}
