// Reading a session file's JSON: JSON Lines records with their line numbers, or one document whose entries' lines are known.
import { SessionReadError } from "./session-read-error.js";
import type { SessionSource } from "./session-reader.js";

export interface JsonRecord {
  readonly value: unknown;
  /** 1-based line the record starts on. */
  readonly line: number;
}

const JSON_FIX = "Check that the file is the agent's own log, unedited, and pass --format if it is not recognized";

/** The 1-based line of character `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf("\n"); index !== -1 && index < offset; index = text.indexOf("\n", index + 1)) line += 1;
  return line;
}

/** Where V8's JSON.parse message says it stopped ("… at position 12"), or undefined. */
function positionOf(error: unknown): number | undefined {
  const match = /position (\d+)/.exec(error instanceof Error ? error.message : "");
  return match === null ? undefined : Number(match[1]);
}

/**
 * Every JSON value of a JSON Lines text, blank lines skipped. A physical line holding two concatenated records
 * (a missing newline in some recordings) gives both, in order.
 */
export function readJsonLines(source: SessionSource, limit = Number.POSITIVE_INFINITY): JsonRecord[] {
  const records: JsonRecord[] = [];
  const lines = source.text.split("\n");
  for (let index = 0; index < lines.length && records.length < limit; index += 1) {
    const text = lines[index]!.trim();
    if (text === "") continue;
    for (const value of parseConcatenated(text, source.file, index + 1)) records.push({ value, line: index + 1 });
  }
  return records;
}

function parseConcatenated(text: string, file: string, line: number): unknown[] {
  try {
    return [JSON.parse(text)];
  } catch (error) {
    // Two records on one line: split at the end of the first top-level value and parse each part.
    const end = endOfFirstValue(text);
    if (end !== undefined && end < text.length) {
      try {
        return [JSON.parse(text.slice(0, end)), ...parseConcatenated(text.slice(end).trim(), file, line)];
      } catch {
        // Not two records after all: report the line as a whole.
      }
    }
    throw new SessionReadError(file, line, `not valid JSON (${(error as Error).message})`, JSON_FIX, { cause: error });
  }
}

/** The offset just past the first complete top-level object or array of `text`, or undefined. */
function endOfFirstValue(text: string): number | undefined {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === "\\") index += 1;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === "{" || character === "[") depth += 1;
    else if (character === "}" || character === "]") {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return undefined;
}

/** The file as one JSON value; a syntax error names its line. */
export function readJsonDocument(source: SessionSource): unknown {
  try {
    return JSON.parse(source.text);
  } catch (error) {
    const position = positionOf(error);
    const line = position === undefined ? 0 : lineAt(source.text, position);
    throw new SessionReadError(source.file, line, `not valid JSON (${(error as Error).message})`, JSON_FIX, { cause: error });
  }
}

/**
 * The line each object or array entry of the document's arrays starts on, by path (`"3"` for the top-level
 * array's fourth entry, `"messages.3"` for an object's `messages` array), two levels deep: what an error names.
 */
export function entryLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const stack: { isArray: boolean; path: string; index: number; key: string }[] = [];
  let line = 1;
  let inString = false;
  let stringStart = 0;
  const startValue = (): void => {
    const parent = stack.at(-1);
    if (parent === undefined || stack.length > 2) return;
    if (parent.isArray) lines.set(parent.path === "" ? String(parent.index) : `${parent.path}.${parent.index}`, line);
  };
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index]!;
    if (character === "\n") line += 1;
    if (inString) {
      if (character === "\\") index += 1;
      else if (character === '"') {
        inString = false;
        const parent = stack.at(-1);
        // A key: the next value of this object is stored under it.
        if (parent !== undefined && !parent.isArray && /^\s*:/.test(text.slice(index + 1, index + 40)))
          parent.key = JSON.parse(text.slice(stringStart, index + 1)) as string;
      }
      continue;
    }
    const parent = stack.at(-1);
    if (character === '"') {
      inString = true;
      stringStart = index;
      if (parent?.isArray === true) startValue();
    } else if (character === "{" || character === "[") {
      if (parent?.isArray === true) startValue();
      const path = parent === undefined ? "" : parent.isArray ? join(parent.path, String(parent.index)) : join(parent.path, parent.key);
      stack.push({ isArray: character === "[", path, index: 0, key: "" });
    } else if (character === "}" || character === "]") stack.pop();
    else if (character === "," && parent?.isArray === true) parent.index += 1;
  }
  return lines;
}

const join = (path: string, part: string): string => (path === "" ? part : `${path}.${part}`);
