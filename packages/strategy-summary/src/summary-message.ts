// The summary as it stands in a view: one synthetic user message, `<summary>…</summary>`, with its figures in metadata.
import type { Message } from "@ctxkit/core";
import { deepFreeze, isSummaryEntry, SUMMARY_SOURCE, type ViewEntry } from "@ctxkit/core/kit";
import type { FileLists } from "./file-operations.js";
import { neutralizeTags } from "./neutralize-tags.js";

export const SUMMARY_ORIGIN = SUMMARY_SOURCE;
export { isSummaryEntry };
/** The most paths of each list written into the message; the metadata keeps them all. */
const MAX_LISTED_FILES = 50;
const OPENING = "<summary>\n";

/** `metadata.ctxkit.summary` on the summary message. */
export interface SummaryMetadata extends FileLists {
  /** The last history index the summary covers. */
  readonly coveredThrough: number;
  /** Tokens of the history messages the summary stands for. */
  readonly tokensBefore: number;
  /** Tokens of the summary message itself. */
  readonly tokensAfter: number;
}

export interface SummaryContent extends FileLists {
  readonly text: string;
  readonly coveredThrough: number;
  readonly tokensBefore: number;
}

function fileSection(tag: string, paths: readonly string[]): string {
  if (paths.length === 0) return "";
  // Paths come from tool calls a model wrote: one line each, and no tag of ours.
  const listed = paths.slice(-MAX_LISTED_FILES).map((path) => neutralizeTags(path.replaceAll(/[\r\n]+/g, " ")));
  const more = paths.length > listed.length ? [`(${paths.length - listed.length} more not listed)`] : [];
  return `\n<${tag}>\n${[...more, ...listed].join("\n")}\n</${tag}>`;
}

/** A frozen view entry holding the summary message, its tokens counted the manager's way. */
export function createSummaryEntry(summary: SummaryContent, countMessage: (message: Message) => number): ViewEntry {
  // The summarizer read tool outputs: whatever they said, its text cannot close the summary or open another.
  const content = `${OPENING}${neutralizeTags(summary.text)}${fileSection("read-files", summary.readFiles)}${fileSection("modified-files", summary.modifiedFiles)}\n</summary>`;
  // Metadata is never sent, so it does not change the count: the message can carry its own size.
  const tokensAfter = countMessage({ role: "user", content });
  const metadata: SummaryMetadata = {
    coveredThrough: summary.coveredThrough,
    tokensBefore: summary.tokensBefore,
    tokensAfter,
    readFiles: [...summary.readFiles],
    modifiedFiles: [...summary.modifiedFiles],
  };
  const message: Message = { role: "user", content, metadata: { ctxkit: { source: SUMMARY_ORIGIN, summary: metadata } } };
  return deepFreeze({ message, tokens: tokensAfter, source: { kind: "synthetic", origin: SUMMARY_ORIGIN } });
}

/** What a summary entry says about itself: its metadata, and the summarizer's text without tags and file lists. */
export function readSummaryEntry(entry: ViewEntry): SummaryContent | undefined {
  const summary = entry.message.metadata?.ctxkit?.["summary"] as SummaryMetadata | undefined;
  const content = entry.message.content;
  if (summary === undefined || typeof content !== "string" || !Number.isInteger(summary.coveredThrough)) return undefined;
  // The file lists come from the metadata, so the text is exactly what lies between them and the opening tag.
  const suffix = `${fileSection("read-files", summary.readFiles)}${fileSection("modified-files", summary.modifiedFiles)}\n</summary>`;
  if (!content.startsWith(OPENING) || !content.endsWith(suffix) || content.length < OPENING.length + suffix.length) return undefined;
  const text = content.slice(OPENING.length, content.length - suffix.length);
  return {
    text,
    coveredThrough: summary.coveredThrough,
    tokensBefore: summary.tokensBefore,
    readFiles: summary.readFiles,
    modifiedFiles: summary.modifiedFiles,
  };
}
