// A JSON document read through one of ctxkit's adapters: its AdapterInputError becomes an error naming the entry's line.
import type { Message } from "@ctxkit/core";
import { AdapterInputError } from "@ctxkit/core/kit";
import { entryLines } from "./json-records.js";
import { SessionReadError } from "./session-read-error.js";
import type { SessionSource } from "./session-reader.js";

/**
 * `convert()`'s messages; an entry it refuses is reported at its line in `source` (`entries` is the path of the
 * array it indexes, `""` for a top-level array, `"messages"` for a request's), with the adapter's own words.
 */
export function convertWithAdapter(source: SessionSource, entries: string, convert: () => Message[]): Message[] {
  try {
    return convert();
  } catch (error) {
    if (!(error instanceof AdapterInputError)) throw error;
    const path = error.index === undefined ? undefined : entries === "" ? String(error.index) : `${entries}.${error.index}`;
    const line = path === undefined ? 0 : (entryLines(source.text).get(path) ?? 0);
    const field = error.field === "" ? "" : `, field "${error.field}"`;
    throw new SessionReadError(
      source.file,
      line,
      `${path === undefined ? "the input" : `entry ${error.index}`}${field}: ${error.problem}`,
      "Check that the file holds what the format says, or pass --format with the format it is in",
      { cause: error },
    );
  }
}
