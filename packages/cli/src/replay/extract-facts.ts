// The facts an agent uses: identifier-like tokens (paths, dotted, snake_case and camelCase names, ids, long
// numbers) that a model call repeats from earlier messages. Retention asks whether a view still holds them.
import type { ContentPart, Message } from "@ctxkit/core";

/** Runs of the characters an identifier, a path or an id is written with. */
const CANDIDATE = /[A-Za-z0-9_./~@-]+/g;
const LETTER = /[A-Za-z]/;
const DIGIT = /\d/;

/** Paths every shell session writes, which say nothing about what the agent read. */
const WELL_KNOWN_PATHS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/usr/bin/env"]);

/** How many earlier messages may hold a fact before it is too common to say anything about the view. */
export const MAX_EARLIER_MESSAGES = 5;

function hasLetterAndDigit(token: string): boolean {
  return LETTER.test(token) && DIGIT.test(token);
}

/** Whether `token` (already stripped of edge punctuation) reads as an identifier rather than a word or a number. */
export function isIdentifierLike(token: string): boolean {
  if (token.length < 4) return false;
  // A long number; short ones are line numbers, counts and years, round ones settings the agent picks (a 60000 ms timeout).
  if (/^\d+$/.test(token)) return token.length >= 5 && !token.endsWith("000");
  if (/^\d{4}-\d{2}-\d{2}$/.test(token)) return true; // a date
  if (!LETTER.test(token)) return false; // versions, decimals, ranges
  if (WELL_KNOWN_PATHS.has(token)) return false;
  if (token.includes("/")) {
    // A path: rooted, relative, home, or with a file extension or several segments; not "and/or".
    // A closing HTML tag (</pre>) or a lone route segment says little: a rooted path needs two segments.
    const segments = token.split("/").filter((segment) => segment !== "");
    if (/\.[A-Za-z0-9]{1,8}$/.test(token) && LETTER.test(segments.at(-1) ?? "")) return true;
    return segments.length >= 3 || (segments.length === 2 && /^(\/|\.{1,2}\/|~\/)/.test(token));
  }
  if (/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)+$/.test(token)) {
    // A dotted name or a file name (mix.exs, Foo.Bar.baz); not a version, a CSS length (0.5rem) or an index (1.kind).
    return /^[A-Za-z_]/.test(token) && token.split(".").some((segment) => segment.length >= 2 && LETTER.test(segment));
  }
  if (token.includes(".")) return false;
  if (/^-/.test(token)) return false; // a command-line flag
  if (token.includes("-")) return /^[a-f0-9]{8}-[a-f0-9]{4}-/i.test(token); // a UUID; kebab-case words are prose
  if (/^_*[A-Za-z0-9]+(_+[A-Za-z0-9]+)+_*$/.test(token)) return true; // snake_case, SCREAMING_CASE, toolu_01…
  if (/[a-z][A-Z]/.test(token)) return true; // camelCase, PascalCase with an inner capital
  if (hasLetterAndDigit(token)) {
    // An id (a2898e3, HAT136, ZFA04Y), not a word with a version (python3, base64, es2022).
    if (/^[a-z]{3,}\d+$/.test(token)) return false;
    return token.length >= 6 || /^[A-Z]+\d+[A-Z\d]*$/.test(token);
  }
  return false;
}

/** Every identifier-like token in `text`, edge punctuation (a sentence's full stop, a colon) stripped. */
export function extractIdentifiers(text: string, into = new Set<string>()): Set<string> {
  for (const match of text.matchAll(CANDIDATE)) {
    const token = match[0].replace(/^[.\-@]+|[./\-@]+$/g, "");
    if (isIdentifierLike(token)) into.add(token);
  }
  return into;
}

/** The string and number values of parsed JSON, never its keys. */
function jsonValues(value: unknown, into: string[]): void {
  if (typeof value === "string") into.push(value);
  else if (typeof value === "number") into.push(String(value));
  else if (Array.isArray(value)) for (const item of value) jsonValues(item, into);
  else if (value !== null && typeof value === "object") for (const child of Object.values(value)) jsonValues(child, into);
}

function contentTexts(content: string | readonly ContentPart[] | null): string[] {
  if (content === null) return [];
  if (typeof content === "string") return [content];
  return content.flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []));
}

/** What the model reads of a message: its text and its tool-call argument values (arguments that are not JSON as they are). */
export function messageTexts(message: Message): string[] {
  const texts = contentTexts(message.content);
  if (message.role === "assistant") {
    for (const call of message.tool_calls ?? []) {
      try {
        jsonValues(JSON.parse(call.function.arguments), texts);
      } catch {
        texts.push(call.function.arguments);
      }
    }
  }
  return texts;
}

const identifiersCache = new WeakMap<Message, ReadonlySet<string>>();

/** The identifiers a message holds, computed once per message object (views mostly reuse their objects). */
export function identifiersOf(message: Message): ReadonlySet<string> {
  let identifiers = identifiersCache.get(message);
  if (identifiers === undefined) {
    identifiers = new Set<string>();
    for (const text of messageTexts(message)) extractIdentifiers(text, identifiers as Set<string>);
    identifiersCache.set(message, identifiers);
  }
  return identifiers;
}

/**
 * For each assistant message of `transcript` (each model call), the facts it used: identifiers in its
 * text and argument values that occurred in an earlier non-system message, in at most
 * `MAX_EARLIER_MESSAGES` of them, and in no system message. Keyed by the assistant message's index.
 */
export function factsUsedByCalls(transcript: readonly Message[]): Map<number, string[]> {
  const instructionIdentifiers = new Set<string>();
  for (const message of transcript) {
    if (message.role === "system" || message.role === "developer")
      for (const identifier of identifiersOf(message)) instructionIdentifiers.add(identifier);
  }
  const earlierMessages = new Map<string, number>();
  const facts = new Map<number, string[]>();
  transcript.forEach((message, index) => {
    if (message.role === "system" || message.role === "developer") return;
    if (message.role === "assistant" && index > 0) {
      const used = [...identifiersOf(message)].filter((identifier) => {
        const seen = earlierMessages.get(identifier) ?? 0;
        return seen > 0 && seen <= MAX_EARLIER_MESSAGES && !instructionIdentifiers.has(identifier);
      });
      facts.set(index, used);
    }
    for (const identifier of identifiersOf(message)) earlierMessages.set(identifier, (earlierMessages.get(identifier) ?? 0) + 1);
  });
  return facts;
}

/** How many of `facts` some message of `view` holds. */
export function countRetained(facts: readonly string[], view: readonly Message[]): number {
  if (facts.length === 0) return 0;
  const missing = new Set(facts);
  for (const message of view) {
    for (const identifier of identifiersOf(message)) missing.delete(identifier);
    if (missing.size === 0) break;
  }
  return facts.length - missing.size;
}
