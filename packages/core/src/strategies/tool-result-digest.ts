// What a cleared tool result leaves behind: the identifiers it named (paths, names, ids) and its first error line,
// so the model still knows which files and symbols the output was about, and can fetch them again.
import type { ContentPart } from "../messages/message.js";

/**
 * Runs of the characters an identifier, a path or an id is written with, holding one character every
 * identifier has (a slash, underscore, dot or digit) or an inner capital: plain words never reach the
 * token-by-token checks, so prose costs one native scan. A match only starts where a run does (the
 * look-behind): it always spans its whole run anyway, and without it a run holding none of those
 * characters was tried again from each of its characters, which made a text with one digit about three
 * times slower to scan.
 */
const CANDIDATE = /(?<![A-Za-z0-9_./~@-])[A-Za-z0-9_./~@-]*(?:[/_.\d]|[a-z][A-Z])[A-Za-z0-9_./~@-]*/g;
const LETTER = /[A-Za-z]/;
// Inside words too: CompileError, TypeError, AssertionError.
const ERROR_LINE = /(error|exception|\bfailed\b|failure|fatal|panic|traceback|denied|not found)/i;
/** An error line longer than this is cut: its start names the error. */
const ERROR_LINE_CHARS = 160;

/** Whether `token` (edge punctuation stripped) reads as an identifier: a path, a dotted, snake_case or camelCase name, an id or a long number. */
export function isIdentifier(token: string): boolean {
  if (token.length < 4) return false;
  if (/^\d+$/.test(token)) return token.length >= 5;
  if (!LETTER.test(token)) return false;
  if (token.includes("/")) {
    const segments = token.split("/").filter((segment) => segment !== "");
    if (/\.[A-Za-z0-9]{1,8}$/.test(token) && LETTER.test(segments.at(-1) ?? "")) return true;
    return segments.length >= 3 || (segments.length === 2 && /^(\/|\.{1,2}\/|~\/)/.test(token));
  }
  if (/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$/.test(token))
    return token.split(".").some((segment) => segment.length >= 2 && LETTER.test(segment));
  if (token.includes(".") || token.startsWith("-")) return false;
  if (token.includes("-")) return /^[a-f0-9]{8}-[a-f0-9]{4}-/i.test(token);
  if (/^_*[A-Za-z0-9]+(_+[A-Za-z0-9]+)+_*$/.test(token)) return true;
  if (/[a-z][A-Z]/.test(token)) return true;
  return /\d/.test(token) && (token.length >= 6 || /^[A-Z]+\d+[A-Z\d]*$/.test(token)) && !/^[a-z]{3,}\d+$/.test(token);
}

/**
 * A character every identifier has (a slash, underscore, dot or digit) or an inner capital: fast native
 * scans that let plain prose skip the token-by-token pass. Two scans, as one alternation is three times slower;
 * the second only for a text with a capital, which an inner capital needs (`toLowerCase` hands back an
 * all-lowercase text itself, in about a third of a scan's time).
 */
const mayHoldIdentifier = (text: string) => /[/_.\d]/.test(text) || (text.toLowerCase() !== text && /[a-z][A-Z]/.test(text));
/** Only this much of a result is read for identifiers, so a huge output costs no more than a large one. */
const SCANNED_CHARS = 20_000;

/**
 * The distinct identifiers of `text` (its first 20 000 characters) in order of first appearance, the first
 * `limit` of them: the scan stops there, so a caller that needs a few of a long output's reads only its start.
 */
export function scanIdentifiers(text: string, limit = Number.POSITIVE_INFINITY): string[] {
  const seen = new Set<string>();
  const scanned = text.length > SCANNED_CHARS ? text.slice(0, SCANNED_CHARS) : text;
  if (limit <= 0 || !mayHoldIdentifier(scanned)) return [];
  for (const match of scanned.matchAll(CANDIDATE)) {
    const token = match[0].replace(/^[.\-@]+|[./\-@]+$/g, "");
    if (isIdentifier(token)) {
      seen.add(token);
      if (seen.size >= limit) break;
    }
  }
  return [...seen];
}

/**
 * `identifiers` (distinct, in order of first appearance) without those `isShown` says the view shows
 * elsewhere, at most `maxCount`, and how many there were in all.
 */
function selectIdentifiers(
  identifiers: readonly string[],
  maxCount: number,
  isShown?: (identifier: string) => boolean,
): { identifiers: string[]; total: number } {
  const selected: string[] = [];
  let total = 0;
  for (const identifier of identifiers) {
    if (isShown?.(identifier) === true) continue;
    total += 1;
    if (selected.length < maxCount) selected.push(identifier);
  }
  return { identifiers: selected, total };
}

/** The distinct identifiers of `text` (its first 20 000 characters) in order of first appearance, at most `maxCount`. */
export function listIdentifiers(
  text: string,
  maxCount: number,
  isShown?: (identifier: string) => boolean,
): { identifiers: string[]; total: number } {
  return selectIdentifiers(scanIdentifiers(text), maxCount, isShown);
}

export function contentText(content: string | readonly ContentPart[] | null): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : "")).join("\n");
}

export interface DigestOptions {
  /** At most this many identifiers are listed. */
  readonly maxIdentifiers: number;
  /** Identifiers the view shows elsewhere, left out of the list. */
  readonly isShown?: (identifier: string) => boolean;
  /** What `scanIdentifiers(text)` gives, when the caller has it already: the text is not read for them again. */
  readonly identifiers?: readonly string[];
}

/**
 * A one-paragraph digest of a tool result: its first error line and the identifiers it named, or ""
 * when it has neither. Deterministic, so a cleared result reads the same on every request.
 */
export function digestToolResult(text: string, options: DigestOptions): string {
  const parts: string[] = [];
  // One scan for the first error word, then its line: no split of a large output into lines.
  const scanned = text.length > SCANNED_CHARS ? text.slice(0, SCANNED_CHARS) : text;
  const found = ERROR_LINE.exec(scanned);
  const lineEnd = found === null ? -1 : scanned.indexOf("\n", found.index);
  const errorLine =
    found === null ? undefined : scanned.slice(scanned.lastIndexOf("\n", found.index) + 1, lineEnd === -1 ? undefined : lineEnd).trim();
  if (errorLine !== undefined && errorLine !== "") {
    parts.push(`first error: ${errorLine.length > ERROR_LINE_CHARS ? `${errorLine.slice(0, ERROR_LINE_CHARS)}…` : errorLine}`);
  }
  const { identifiers, total } = selectIdentifiers(options.identifiers ?? scanIdentifiers(text), options.maxIdentifiers, options.isShown);
  if (identifiers.length > 0)
    parts.push(`it named: ${identifiers.join(", ")}${total > identifiers.length ? ` and ${total - identifiers.length} more` : ""}`);
  return parts.join("; ");
}
