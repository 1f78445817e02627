// A session file read into messages: its format detected (or named), what was left out counted.
import { readFile } from "node:fs/promises";
import type { Message } from "@ctxkit/core";
import { detectFormat, findReader, FORMAT_NAMES } from "./detect-format.js";
import { SessionReadError } from "./session-read-error.js";

export interface ReadSessionOptions {
  /** A reader's name (`--format`); detected from the first records when absent. */
  readonly format?: string;
}

export interface SessionFile {
  readonly file: string;
  readonly format: string;
  readonly messages: Message[];
  readonly skipped: Readonly<Record<string, number>>;
}

/** Reads `file`; a `SessionReadError` names the file (and the line) when it cannot. */
export async function readSession(file: string, options: ReadSessionOptions = {}): Promise<SessionFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new SessionReadError(file, 0, `cannot be read (${code})`, "Check the path, and that it is a file you can read", { cause: error });
  }
  const source = { file, text };
  const reader = options.format === undefined ? detectFormat(source) : findReader(options.format);
  if (reader === undefined)
    throw new SessionReadError(file, 0, `there is no format "${options.format}"`, `Pass --format with one of: ${FORMAT_NAMES.join(", ")}`);
  return { file, format: reader.name, ...reader.read(source) };
}
